import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// Modes on the real desktop: Productivity lets productivity apps be and disables the rest, with a
/// way through chosen in the real notification server.
final class AgentModeDesktopTests: XCTestCase {
    func testAModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce() throws {
        try DesktopScenarios.aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce(on: DesktopHarness.shared())
    }

    func testProductivityDisablesAContentAppAndThreeMoreMinutesLetItStayForTheirTime() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let monitor = try BusMonitor(address: desk.busAddress)
        let dunst = try DunstControl(desktop: desk)
        // "3 more minutes" shortened to 3 s for the test.
        let environment = try AgentProcess.freshEnvironment(on: desk, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            breaks = off
            productivity-bypass = 3s
            """)
        let applications = try AgentProcess.applicationsFolder(environment)
        try "[Desktop Entry]\nType=Application\nName=Code Editor\nExec=editor\nStartupWMClass=Editor\nCategories=Development;\n"
            .write(to: applications.appendingPathComponent("editor.desktop"), atomically: true, encoding: .utf8)
        try "[Desktop Entry]\nType=Application\nName=Video Player\nExec=video\nStartupWMClass=Video\nCategories=AudioVideo;Video;\n"
            .write(to: applications.appendingPathComponent("video.desktop"), atomically: true, encoding: .utf8)
        let agent = try AgentProcess(environment: environment, desk: desk)

        let editor = try windows.openWindow(class: "Editor", title: "main.swift")
        let video = try windows.openWindow(class: "Video", title: "a film")
        windows.activate(video)
        XCTAssertTrue(eventually { (try? agent.cli(["status", "--json"]).out.contains("\"focused\" : \"video\"")) == true })

        let switched = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(switched.status, 0, switched.err)
        XCTAssertTrue(eventually { windows.wmState(video) == 3 }, "the focused content app is disabled at the switch")
        let modeNotice = try monitor.waitForNotify { $0.icon == "screentime-productivity" }
        XCTAssertEqual(modeNotice.summary.contains("Productivity"), true, modeNotice.summary)
        let offer = try monitor.waitForNotify { $0.actions.first == "continue" && $0.summary.contains("Video Player") }
        XCTAssertEqual(offer.actions, ["continue", "3 more seconds", "ok", "OK"])
        let status = try StatusFormat.decode(agent.cli(["status", "--json"]).out)
        XCTAssertEqual(status.mode, "productivity")
        XCTAssertTrue(status.reason.lowercased().contains("you"), status.reason)
        XCTAssertEqual(status.sleepTimes, "bedtime 23:00 (default until 3 nights are known), wake time 07:00 (default until 3 nights are known)")

        // An allowed (Development) app stays.
        windows.activate(editor)
        XCTAssertTrue(eventually { (try? agent.cli(["status", "--json"]).out.contains("\"focused\" : \"editor\"")) == true })
        usleep(500_000)
        XCTAssertEqual(windows.wmState(editor), 1)

        // The way through, chosen in dunst's own menu: the video may stay for its 3 s, then goes.
        // Productivity pauses dunst (do-not-disturb), which holds the offer too: the user resumes it to choose.
        XCTAssertTrue(eventually { (try? dunst.isPaused()) == true }, "Productivity silences dunst")
        try dunst.setPaused(false)
        try dunst.chooseAction(label: "3 more seconds", notification: nil)
        XCTAssertTrue(eventually {
            let store = try? UsageDatabase(path: agent.databasePath, readOnly: true)
            return (try? store?.bypasses(from: Date().addingTimeInterval(-60), to: Date().addingTimeInterval(1)))??.contains { $0.app == "video" && $0.mode == "productivity" && $0.granted == 3 } == true
        }, "the way through is recorded with the mode")
        windows.activate(video)
        XCTAssertTrue(eventually { windows.wmState(video) == 1 })
        let allowed = Date()
        usleep(1_500_000)
        XCTAssertEqual(windows.wmState(video), 1, "usable inside the 3 s")
        XCTAssertTrue(eventually(4) { windows.wmState(video) == 3 })
        XCTAssertEqual(Date().timeIntervalSince(allowed), 3, accuracy: 1)
        XCTAssertEqual(windows.wmState(editor) == 3, false)

        // `continue` says what the agent granted: the mode's 3 s, not continue-for's hour.
        let continued = try agent.cli(["continue", "video"])
        XCTAssertEqual(continued.out, "video: 3 s more today. Enjoy, and take care.\n", continued.err)
        // A restart does not turn the mode's bypasses into hours past the video's limit.
        XCTAssertEqual(agent.stop(), 0)
        let again = try AgentProcess(environment: environment, desk: desk)
        let restarted = try StatusFormat.decode(again.cli(["status", "--json"]).out)
        XCTAssertEqual(restarted.apps.first { $0.id == "video" }?.limitSeconds, 3600)
        XCTAssertEqual(restarted.apps.first { $0.id == "video" }?.continues, 0)
    }

    /// Wind Down's notice carries "Go to bed" and "Stay up", chosen in dunst's own menu as a user
    /// would: the agent records the choice and the mode follows.
    func testGoToBedAndStayUpChosenInWindDownsNotice() throws {
        let desk = try DesktopHarness.shared()
        let dunst = try DunstControl(desktop: desk)
        for (label, mode) in [("Go to bed", "sleep"), ("Stay up", "standard")] {
            try dunst.closeAll()
            let monitor = try BusMonitor(address: desk.busAddress)
            let agent = try AgentProcess.inWindDown(on: desk)
            XCTAssertEqual(try agent.status().mode, "wind-down", "the fixture: Wind Down before the pinned bedtime")
            // The mode's own notice (a window left focused by an earlier test may get a notice of its own).
            let notice = try monitor.waitForNotify { $0.summary == "Wind Down mode" }
            XCTAssertEqual(notice.actions, ["bedtime", "Go to bed", "stay-up", "Stay up"])
            // Wind Down pauses dunst (do-not-disturb), which holds the notice: the user resumes it to read it.
            XCTAssertTrue(eventually { (try? dunst.isPaused()) == true }, "Wind Down silences dunst")
            try dunst.setPaused(false)
            XCTAssertTrue(eventually { (try? dunst.displayedCount()).map { $0 >= 1 } ?? false }, "dunst shows the notice")
            try dunst.chooseAction(label: label, notification: nil)
            XCTAssertTrue(eventually { (try? agent.status().mode) == mode }, "\(label): \(agent.log)")
            let status = try agent.status()
            XCTAssertTrue(status.reason.hasPrefix(mode == "sleep" ? "you went to bed at " : "always on"), "\(label): \(status.reason)")
            XCTAssertEqual(agent.stop(), 0, agent.log)
        }
    }
}
