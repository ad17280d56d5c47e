import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The agent as a user runs it on GNOME: a real, headless GNOME Shell 43 (Wayland) with the
/// project's extension, the shell's own notification server, Mutter's idle monitor.
final class GnomeShellAgentTests: GnomeShellTestCase {
    var monitor: BusMonitor!

    override func setUpWithError() throws {
        try super.setUpWithError()
        monitor = try BusMonitor(address: shell.busAddress)
    }

    func isMinimized(_ window: GnomeShellHarness.Window) -> Bool {
        (try? shell.windows().first { $0.id == window.id }?.minimized) == true
    }

    func testEveryCapabilityComesFromGnomeShell() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: shell, config: "[general]\nidle-after = 1h\n"),
                                     desk: shell)
        XCTAssertTrue(eventually { (try? agent.status().backends["notifications"]) != nil }, "GNOME Shell's notification server answered")
        let backends = try agent.status().backends
        XCTAssertTrue(backends["focus"]?.contains("GNOME Shell extension") == true, "\(backends)")
        XCTAssertTrue(backends["minimize"]?.contains("GNOME Shell extension") == true, "\(backends)")
        XCTAssertTrue(backends["idle"]?.contains("Mutter idle monitor") == true, "\(backends)")
        XCTAssertTrue(backends["screen filter"]?.contains("grayscale and warm tint") == true, "\(backends)")
        XCTAssertTrue(backends["notifications"]?.contains("gnome-shell") == true, "\(backends)")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// Without the extension nothing can be counted on GNOME: the log and doctor say what to do.
    func testWithoutTheExtensionDoctorSaysHowToInstallIt() throws {
        defer { try? shell.setExtensionEnabled(true) }
        try shell.setExtensionEnabled(false)
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: shell, config: "[general]\nidle-after = 1h\n"),
                                     desk: shell)
        XCTAssertTrue(eventually { agent.log.contains("not installed: run ./install.sh") }, agent.log)
        let doctor = try agent.cli(["doctor"])
        XCTAssertTrue(doctor.out.contains("not installed: run ./install.sh"), doctor.out + doctor.err)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// The countdown, the disable, the window brought back and "Continue for 3 s" clicked on GNOME
    /// Shell's banner (DesktopScenarios). GNOME 43's org.freedesktop.Notifications is a small gjs
    /// service passing each call on to the shell: the monitor sees every Notify twice, the agent's first.
    func testCountdownDisableReopenAndContinueThroughGnomesNotification() throws {
        _ = try DesktopScenarios.countdownDisableReopenAndContinue(on: shell, usageAccuracy: 1.5)
    }

    func testAModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce() throws {
        try DesktopScenarios.aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce(on: shell)
    }

    /// A title rule's app over its limit is minimized in its own window only, also once renamed to
    /// match: the extension sends titles for the apps a rule names (DesktopScenarios).
    func testTitleRuleAppIsMinimizedInItsOwnWindowOnly() throws {
        try DesktopScenarios.aTitleRuleDisablesOnlyTheWindowItMatches(on: shell)
    }

    /// Productivity disables the focused content app at once and grays the screen; the screen
    /// comes back when the agent is SIGKILLed (the extension sees its bus name vanish).
    func testAModeThatDoesNotAllowTheFocusedAppDisablesItAtOnceAndAKilledAgentLeavesNoGray() throws {
        let environment = try AgentProcess.freshEnvironment(on: shell, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            breaks = off
            """)
        let applications = try AgentProcess.applicationsFolder(environment)
        try "[Desktop Entry]\nType=Application\nName=Video Player\nExec=stvideo\nCategories=AudioVideo;Video;\n"
            .write(to: applications.appendingPathComponent("stvideo.desktop"), atomically: true, encoding: .utf8)
        let agent = try AgentProcess(environment: environment, desk: shell)
        let video = try shell.openWindow(appID: "stvideo")
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stvideo") }, agent.log)
        let rows = 120..<800
        let before = try shell.settledScreenshot(rows: rows)
        XCTAssertGreaterThan(before.maximumChroma(rows: rows), 50)

        let switched = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(switched.status, 0, switched.err)
        XCTAssertTrue(eventually { self.isMinimized(video) }, "the focused content app is disabled at the switch")
        try shell.waitUntil("a gray screen") { ((try? shell.screenshot())?.maximumChroma(rows: rows) ?? 255) <= 2 }

        agent.stop(signal: SIGKILL)
        try shell.waitUntil("the screen's colours back") { ((try? shell.screenshot())?.maximumChroma(rows: rows) ?? 0) > 50 }
    }

    func testDisplayRestoreGivesTheColoursBackThroughTheExtension() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: shell, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            breaks = off
            """), desk: shell)
        try shell.openWindow(appID: "steditor")
        let rows = 120..<800
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        try shell.waitUntil("a gray screen") { ((try? shell.screenshot())?.maximumChroma(rows: rows) ?? 255) <= 2 }
        let restored = try agent.cli(["display", "restore"])
        XCTAssertEqual(restored.status, 0, restored.err)
        XCTAssertTrue(restored.out.contains("GNOME Shell extension"), restored.out)
        try shell.waitUntil("the screen's colours back") { ((try? shell.screenshot())?.maximumChroma(rows: rows) ?? 0) > 50 }
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// Idle time is not counted; Mutter's idle time reset stands for the user's input. One input,
    /// 2 s before a busy agent's first turn, is idle time already: the scenario keeps typing while
    /// it waits (DesktopScenarios).
    func testIdleTimeIsNotCounted() throws {
        try DesktopScenarios.idleTimeIsNotCounted(on: shell, provider: "Mutter idle monitor", idleAfter: 2) { try self.shell.resetIdletime() }
    }
}
