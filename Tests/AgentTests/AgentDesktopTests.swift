import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest

/// The agent as a user runs it, on a real X server, window manager, session bus and dunst.
final class AgentDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!
    var monitor: BusMonitor!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
        monitor = try BusMonitor(address: desk.busAddress)
    }

    /// XCTest keeps every test case object to the end of the run: the client is let go here, so
    /// its windows go with its connection instead of staying focused for the tests after it.
    override func tearDown() {
        windows = nil
        monitor = nil
    }

    static let shortLimits = """
        [general]
        idle-after = 1h
        countdown = 4s;2s
        continue-for = 3s
        [limits]
        notes = 6s
        quiet = 1s
        tom&jerry<b> = 1s
        """

    func startAgent(config: String = AgentDesktopTests.shortLimits) throws -> AgentProcess {
        try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
    }

    func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    /// A title rule's app over its limit is minimized in the window whose title matches, not in
    /// the same browser's other windows (minimizing reads titles only of apps with a title rule).
    func testTitleRuleAppIsMinimizedInItsOwnWindowOnly() throws {
        let agent = try startAgent(config: """
            [general]
            idle-after = 1h
            [limits]
            stvideo = 1s
            [rules]
            stvideo = stbrowser:Cat videos
            """)
        let docs = try windows.openWindow(class: "StBrowser", title: "Docs")
        let video = try windows.openWindow(class: "StBrowser", title: "Cat videos - Tube")
        windows.activate(video)
        XCTAssertTrue(eventually { self.windows.wmState(video) == 3 }, "the video window is minimized")
        XCTAssertEqual(windows.wmState(docs), 1, "the browser's other window is left alone")
        agent.stop()
        windows.close(docs)
        windows.close(video)
    }

    /// A title rule added while its window is focused applies at once: the title, not read while
    /// no rule needed it, is read when the config changes.
    func testTitleRuleAddedWhileItsWindowIsFocusedAppliesAtOnce() throws {
        let config = """
            [general]
            idle-after = 1h
            [limits]
            stclip = 1s
            """
        let agent = try startAgent(config: config)
        let video = try windows.openWindow(class: "StPlayer", title: "Clip of the day")
        windows.activate(video)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID("stplayer") })
        try (config + "\n[rules]\nstclip = stplayer:Clip\n").write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { self.windows.wmState(video) == 3 }, "the clip is minimized without a focus switch")
        agent.stop()
        windows.close(video)
    }

    func testCountdownDisableReopenAndContinueThroughTheNotification() throws {
        let agent = try startAgent()
        let dunst = try DunstControl(desktop: desk)
        let editor = try windows.openWindow(class: "Editor", title: "draft")
        windows.activate(editor)
        let notes = try windows.openWindow(class: "Notes", title: "todo <list>")
        windows.activate(notes)
        let start = Date()

        let first = try monitor.waitForNotify { $0.summary == "Notes: 4 s left today" }
        XCTAssertEqual(Date().timeIntervalSince(start), 2, accuracy: 1)
        XCTAssertEqual(first.replacesID, 0)
        XCTAssertEqual(first.icon, "notes")
        let second = try monitor.waitForNotify { $0.summary == "Notes: 2 s left today" }
        XCTAssertNotEqual(second.replacesID, 0, "the countdown updates one notification in place")

        let disabled = try monitor.waitForNotify(timeout: 6) { $0.summary == "Time for a break from Notes?" }
        XCTAssertEqual(disabled.replacesID, second.replacesID)
        XCTAssertEqual(disabled.actions, ["continue", "Continue for 3 s", "ok", "OK"])
        XCTAssertTrue(disabled.body.contains("You have used Notes for 6 s today"), disabled.body)
        XCTAssertTrue(eventually { self.windows.wmState(notes) == 3 }, "minimized at the limit")
        XCTAssertEqual(Date().timeIntervalSince(start), 6, accuracy: 1.5)
        XCTAssertEqual(windows.wmState(editor), 1, "other apps are left alone")

        // Bringing it back without continuing minimizes it again, with the same offer.
        // openbox handles the focus revert of the minimize first, or it falls back to the editor.
        XCTAssertTrue(windows.syncWithWindowManager(), "openbox did not answer")
        let offers = monitor.notifyCalls.filter { $0.summary == disabled.summary }.count
        windows.activate(notes)
        _ = try monitor.waitFor("the offer again") { $0.notifyCalls.filter { $0.summary == disabled.summary }.count > offers ? true : nil }
        XCTAssertTrue(eventually { self.windows.wmState(notes) == 3 })

        // "Continue for 3 s", chosen in dunst's own menu, lets it stay for 3 s.
        try dunst.chooseAction(label: "Continue for 3 s", notification: disabled.replacesID)
        XCTAssertTrue(eventually { (try? self.status(agent).apps.first { $0.id == "notes" }?.continues) == 1 })
        windows.activate(notes)
        XCTAssertTrue(eventually { self.windows.wmState(notes) == 1 })
        let continued = Date()
        usleep(1_500_000)
        XCTAssertEqual(windows.wmState(notes), 1, "still usable inside the granted time")
        XCTAssertTrue(eventually(4) { self.windows.wmState(notes) == 3 })
        XCTAssertEqual(Date().timeIntervalSince(continued), 3, accuracy: 1)

        let notesStatus = try XCTUnwrap(status(agent).apps.first { $0.id == "notes" })
        XCTAssertEqual(notesStatus.state, "disabled")
        XCTAssertEqual(notesStatus.usedSeconds, 9, accuracy: 1)

        XCTAssertEqual(agent.stop(), 0, agent.log)
        let report = try agent.cli(["report", "--json"])
        let decoded = try JSONDecoder().decode(UsageReport.self, from: Data(report.out.utf8))
        XCTAssertEqual(try XCTUnwrap(decoded.apps.first { $0.id == "notes" }).seconds, 9, accuracy: 1)
        XCTAssertEqual(decoded.bypasses.map(\.app), ["notes"])
        XCTAssertEqual(decoded.limitsReached.map(\.app), ["notes", "notes"])
    }

    func testSigkillLosesAtMostTwoSeconds() throws {
        let agent = try startAgent()
        let reader = try windows.openWindow(class: "Reader", title: "book")
        windows.activate(reader)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == "reader" })
        let start = Date()
        usleep(3_500_000)
        agent.stop(signal: SIGKILL)
        let counted = Date().timeIntervalSince(start)
        let store = try UsageDatabase(path: agent.databasePath, readOnly: true)
        let recorded = try store.usageByApp(from: start.addingTimeInterval(-60), to: Date())["reader"] ?? 0
        XCTAssertGreaterThanOrEqual(recorded, counted - 2.2)
        XCTAssertLessThanOrEqual(recorded, counted + 0.5)
    }

    func testASecondAgentRefusesToStart() throws {
        let agent = try startAgent()
        let second = try agent.cli(["agent"])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.err.contains("another screentime agent is already running"), second.err)
    }

    func testBrokenConfigIsReportedWithItsLineAndTheLastGoodOneStays() throws {
        let agent = try startAgent()
        try "[limits]\nnotes = 6x\n".write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { (try? self.status(agent).configProblem)??.contains("config:2:") == true })
        XCTAssertTrue(try agent.cli(["status"]).out.contains("`6x` is not a duration"))
        let limits = try agent.cli(["limit", "list"])
        XCTAssertEqual(limits.status, 1, "the CLI names the broken line too")
        XCTAssertTrue(limits.err.contains("config:2:"), limits.err)

        let notes = try windows.openWindow(class: "Notes", title: "todo")
        windows.activate(notes)
        XCTAssertTrue(eventually(10) { self.windows.wmState(notes) == 3 }, "the last good limit (6 s) still applies")

        try Self.shortLimits.write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { (try? self.status(agent).configProblem) == .some(nil) })
    }

    func testUntrustedAppNamesAreEscapedForMarkup() throws {
        let agent = try startAgent()
        let window = try windows.openWindow(class: "Tom&Jerry<b>", title: "<i>title</i>")
        windows.activate(window)
        XCTAssertTrue(eventually { self.windows.wmState(window) == 3 }, agent.log + "\(try! self.status(agent))")
        let disabled = try monitor.waitForNotify(timeout: 5) { $0.summary.hasPrefix("Time for a break") }
        XCTAssertTrue(disabled.body.contains("Tom&amp;Jerry&lt;b&gt;"), disabled.body)
        XCTAssertFalse(disabled.body.contains("<b>"))
    }

    func testWithoutANotificationServerAppsAreStillDisabledAndTheAgentCarriesOn() throws {
        let agent = try startAgent()
        desk.stopNotificationServer()
        defer { if !desk.busNameHasOwner("org.freedesktop.Notifications") { try? desk.startNotificationServer() } }
        let quiet = try windows.openWindow(class: "Quiet", title: "q")
        windows.activate(quiet)
        XCTAssertTrue(eventually { self.windows.wmState(quiet) == 3 })
        XCTAssertTrue(agent.process.isRunning)
        try desk.startNotificationServer()
        XCTAssertEqual(try agent.cli(["status"]).status, 0)
    }

    func testIdleTimeIsNotCounted() throws {
        let agent = try startAgent(config: "[general]\nidle-after = 1s\n")
        let idler = try windows.openWindow(class: "Idler", title: "i")
        try desk.run("xdotool", ["mousemove", "10", "10"])
        windows.activate(idler)
        usleep(3_000_000)
        let used = try XCTUnwrap(status(agent).apps.first { $0.id == "idler" }).usedSeconds
        XCTAssertEqual(used, 1, accuracy: 0.6, "only the second before the idle threshold counts")
        XCTAssertFalse(try status(agent).active)
    }
}
