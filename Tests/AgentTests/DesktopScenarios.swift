import Foundation
import Harnesses
import ScreenTimeCore
import XCTest

/// End-to-end scenarios written once against `ScenarioDesktop` and run by each desktop's tests
/// (X11, sway, GNOME Shell, KWin), the agent as a user runs it there.
enum DesktopScenarios {
    /// Productivity disables the focused content app at once, with a notification offering the way
    /// through, and leaves an allowed app alone.
    static func aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce<Desktop: ScenarioDesktop>(
        on desktop: Desktop, file: StaticString = #filePath, line: UInt = #line) throws {
        let monitor = try BusMonitor(address: desktop.busAddress)
        let environment = try AgentProcess.freshEnvironment(on: desktop, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            breaks = off
            """)
        try AgentProcess.installDesktopEntry("stcode", "[Desktop Entry]\nType=Application\nName=Code Editor\nExec=stcode\nCategories=Development;\n",
                                             environment: environment)
        try AgentProcess.installDesktopEntry("stvideo", "[Desktop Entry]\nType=Application\nName=Video Player\nExec=stvideo\nCategories=AudioVideo;Video;\n",
                                             environment: environment)
        let agent = try AgentProcess(environment: environment, desk: desktop)
        defer { agent.stop() }
        let code = try desktop.openAppWindow("stcode")
        defer { desktop.close(code) }
        let video = try desktop.openAppWindow("stvideo")
        defer { desktop.close(video) }
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stvideo") }, agent.log, file: file, line: line)

        let switched = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(switched.status, 0, switched.err, file: file, line: line)
        XCTAssertTrue(eventually { desktop.isMinimized(video) }, "the focused content app is disabled at the switch", file: file, line: line)
        _ = try monitor.waitForNotify { $0.actions.first == "continue" && $0.summary.contains("Video Player") }

        try desktop.focus(code)
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stcode") }, agent.log, file: file, line: line)
        XCTAssertFalse(desktop.isMinimized(code), "an allowed app stays", file: file, line: line)
        XCTAssertEqual(agent.stop(), 0, agent.log, file: file, line: line)
    }

    /// What `countdownDisableReopenAndContinue` saw, for the checks a desktop adds.
    struct CountdownRun {
        let agent: AgentProcess
        let first: BusMonitor.NotifyCall
        let second: BusMonitor.NotifyCall
        let disabled: BusMonitor.NotifyCall
    }

    /// A 6 s limit's countdown (4 s, 2 s) updating one notification in place; the disable at the
    /// limit with the offer to continue, other apps left alone; the app brought back without
    /// continuing, disabled again with the same offer; then "Continue for 3 s" chosen in the
    /// desktop's own notification server: usable inside the granted time, disabled after it.
    /// `afterFirstCountdown` checks what a desktop adds while the agent runs; the agent has stopped
    /// when this returns.
    static func countdownDisableReopenAndContinue<Desktop: ScenarioDesktop>(
        on desktop: Desktop, app: String = "stnotes", usageAccuracy: TimeInterval = 1,
        afterFirstCountdown: (AgentProcess) throws -> Void = { _ in },
        file: StaticString = #filePath, line: UInt = #line) throws -> CountdownRun {
        let monitor = try BusMonitor(address: desktop.busAddress)
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desktop, config: """
            [general]
            idle-after = 1h
            countdown = 4s;2s
            continue-for = 3s
            [limits]
            \(app) = 6s
            """), desk: desktop)
        defer { agent.stop() }
        // What the agent and the bus saw, when it fails: a failure on a loaded CI machine is read from this.
        var passed = false
        defer { if !passed { print("agent log:\n\(agent.log)\nnotifications:\n\(monitor.notifyCalls.map(\.summary))") } }
        let editor = try desktop.openAppWindow("steditor")
        defer { desktop.close(editor) }
        let notes = try desktop.openAppWindow(app)
        defer { desktop.close(notes) }
        let start = Date()
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID(app) }, agent.log, file: file, line: line)

        let first = try monitor.waitForNotify { $0.summary == "\(app): 4 s left today" }
        XCTAssertEqual(Date().timeIntervalSince(start), 2, accuracy: 1, file: file, line: line)
        XCTAssertEqual(first.replacesID, 0, file: file, line: line)
        try afterFirstCountdown(agent)
        let second = try monitor.waitForNotify { $0.summary == "\(app): 2 s left today" }
        XCTAssertNotEqual(second.replacesID, 0, "the server answered the first Notify: the countdown updates it in place", file: file, line: line)

        let disabled = try monitor.waitForNotify(timeout: 6) { $0.summary == "Time for a break from \(app)?" }
        XCTAssertEqual(disabled.replacesID, second.replacesID, file: file, line: line)
        XCTAssertEqual(disabled.actions, ["continue", "Continue for 3 s", "ok", "OK"], file: file, line: line)
        XCTAssertTrue(disabled.body.contains("You have used \(app) for 6 s today"), disabled.body, file: file, line: line)
        XCTAssertTrue(eventually { desktop.isMinimized(notes) }, "minimized at the limit", file: file, line: line)
        XCTAssertEqual(Date().timeIntervalSince(start), 6, accuracy: 1.5, file: file, line: line)
        XCTAssertFalse(desktop.isMinimized(editor), "other apps are left alone", file: file, line: line)

        // Brought back without continuing: minimized again, with the same offer.
        let offers = monitor.notifyCalls.filter { $0.summary == disabled.summary }.count
        try desktop.bringBack(notes)
        _ = try monitor.waitFor("the offer again") { $0.notifyCalls.filter { $0.summary == disabled.summary }.count > offers ? true : nil }
        XCTAssertTrue(eventually { desktop.isMinimized(notes) }, "minimized again: \(agent.log)", file: file, line: line)

        // "Continue for 3 s", chosen in the desktop's notification server, lets it stay for 3 s.
        try desktop.chooseNotificationAction("continue", label: "Continue for 3 s", of: disabled)
        XCTAssertTrue(eventually { (try? agent.status().apps.first { $0.id == AppID(app) }?.continues) == 1 }, agent.log, file: file, line: line)
        try desktop.bringBack(notes)
        XCTAssertTrue(eventually { !desktop.isMinimized(notes) }, file: file, line: line)
        let continued = Date()
        usleep(1_500_000)
        XCTAssertFalse(desktop.isMinimized(notes), "still usable inside the granted time", file: file, line: line)
        XCTAssertTrue(eventually(4) { desktop.isMinimized(notes) }, file: file, line: line)
        XCTAssertEqual(Date().timeIntervalSince(continued), 3, accuracy: 1, file: file, line: line)

        let notesStatus = try XCTUnwrap(agent.status().apps.first { $0.id == AppID(app) }, file: file, line: line)
        XCTAssertEqual(notesStatus.state, "disabled", file: file, line: line)
        XCTAssertEqual(notesStatus.usedSeconds, 9, accuracy: usageAccuracy, file: file, line: line)
        XCTAssertEqual(agent.stop(), 0, agent.log, file: file, line: line)
        passed = true
        return CountdownRun(agent: agent, first: first, second: second, disabled: disabled)
    }

    /// A title rule's app over its limit is disabled in the window whose title matches, not in the
    /// same app's other window (titles are read and followed for the apps a rule names); the other
    /// window, renamed to match while focused, is disabled without a focus switch.
    static func aTitleRuleDisablesOnlyTheWindowItMatches<Desktop: ScenarioDesktop>(
        on desktop: Desktop, file: StaticString = #filePath, line: UInt = #line) throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desktop, config: """
            [general]
            idle-after = 1h
            [limits]
            stclips = 1s
            [rules]
            stclips = stbrowser:Cat videos
            """), desk: desktop)
        defer { agent.stop() }
        let docs = try desktop.openAppWindow("stbrowser", title: "Docs")
        defer { desktop.close(docs) }
        let video = try desktop.openAppWindow("stbrowser", title: "Cat videos - Tube")
        defer { desktop.close(video) }
        XCTAssertTrue(eventually { desktop.isMinimized(video) }, "the matching window is disabled: \(agent.log)", file: file, line: line)
        XCTAssertFalse(desktop.isMinimized(docs), "the app's other window is left alone", file: file, line: line)

        try desktop.focus(docs)
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stbrowser") }, agent.log, file: file, line: line)
        usleep(500_000)
        XCTAssertFalse(desktop.isMinimized(docs), "the app's own time has no limit", file: file, line: line)
        try desktop.setTitle("Cat videos - more", of: docs)
        XCTAssertTrue(eventually { desktop.isMinimized(docs) }, "renamed to match, it is disabled: \(agent.log)", file: file, line: line)
        XCTAssertEqual(agent.stop(), 0, agent.log, file: file, line: line)
    }

    /// Time stops counting once nobody used the keyboard or mouse for `idle-after`: only the time
    /// before the threshold counts. With `userInput` (how a user's input is made on the desktop;
    /// nil where nothing can fake it, KWin's virtual output), input makes the user present again
    /// and the time counts again. `provider` begins the name of the idle provider the agent must
    /// use; `agentEnvironment` adjusts the agent's environment.
    static func idleTimeIsNotCounted<Desktop: ScenarioDesktop>(
        on desktop: Desktop, provider: String, idleAfter: TimeInterval = 1, userInput: (() throws -> Void)?,
        agentEnvironment: (inout [String: String]) -> Void = { _ in }, file: StaticString = #filePath, line: UInt = #line) throws {
        var environment = try AgentProcess.freshEnvironment(on: desktop, config: "[general]\nidle-after = \(Int(idleAfter))s\n")
        agentEnvironment(&environment)
        let agent = try AgentProcess(environment: environment, desk: desktop)
        defer { agent.stop() }
        let backends = try agent.status().backends
        XCTAssertTrue(backends["idle"]?.hasPrefix(provider) == true, "\(backends)", file: file, line: line)
        let app = AppID("stidler")
        // Time counts from the window's opening at the earliest, up to the threshold after the last input.
        let opened = Date()
        var lastInput = opened
        let idler = try desktop.openAppWindow(app.rawValue)
        defer { desktop.close(idler) }
        /// Waits for `condition` while the user keeps using the desktop (where input can be made).
        func whileUsed(_ timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
            eventually(timeout) {
                if let userInput, (try? userInput()) != nil { lastInput = Date() }
                return condition()
            }
        }
        XCTAssertTrue(whileUsed(5) { (try? agent.status().focused) == app && ((try? agent.usedSeconds(app)) ?? 0) > 0 },
                      "counted while the user is there: \(agent.log)", file: file, line: line)
        XCTAssertTrue(eventually(idleAfter + 4) { (try? agent.status().active) == false },
                      "idle \(idleAfter) s after the last input: \(agent.log)", file: file, line: line)
        let used = try agent.usedSeconds(app)
        XCTAssertLessThanOrEqual(used, lastInput.timeIntervalSince(opened) + idleAfter + 0.5,
                                 "no more than the time up to the idle threshold counts", file: file, line: line)
        usleep(1_500_000)
        XCTAssertEqual(try agent.usedSeconds(app), used, accuracy: 0.3, "idle time is not counted", file: file, line: line)
        if userInput != nil {
            XCTAssertTrue(whileUsed(3) { (try? agent.status().active) == true }, "input makes the user present again: \(agent.log)",
                          file: file, line: line)
            XCTAssertTrue(whileUsed(3) { ((try? agent.usedSeconds(app)) ?? 0) > used + 0.5 }, "and counted again", file: file, line: line)
        }
        XCTAssertEqual(agent.stop(), 0, agent.log, file: file, line: line)
    }
}
