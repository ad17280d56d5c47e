import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// The agent as a user runs it in a KDE Plasma (Wayland) session: real KWin 5.27 on its virtual
/// output, the session bus, dunst; Wayland windows (weston clients). Focus and minimize go
/// through the KWin script, and what KWin did is read back from KWin itself.
final class KWinAgentTests: XCTestCase {
    private var kwin: KWinHarness!
    private var monitor: BusMonitor!

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
        try kwin.ensureNotificationServer()
        monitor = try BusMonitor(address: kwin.busAddress)
    }

    /// weston-flower is "flower", weston-clickdot "dots" and weston-terminal "term" through their
    /// desktop entries' StartupWMClass.
    /// `sharingKWinSettings`: the agent's XDG_CONFIG_HOME is KWin's, as in a real session, so
    /// kwinrc is the one KWin reads (the agent's own config is written there too).
    private func startAgent(config: String, flowerCategories: String = "Game;", dotsCategories: String = "Game;",
                            sharingKWinSettings: Bool = false) throws -> AgentProcess {
        var environment = try AgentProcess.freshEnvironment(on: kwin, config: sharingKWinSettings ? nil : config)
        if sharingKWinSettings {
            let configHome = try XCTUnwrap(kwin.environment["XDG_CONFIG_HOME"])
            environment["XDG_CONFIG_HOME"] = configHome
            let folder = URL(fileURLWithPath: configHome).appendingPathComponent("screentime")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }
        for (id, name, program, appID) in [("flower", "Flower", "weston-flower", "org.freedesktop.weston.flower"),
                                           ("dots", "Dots", "weston-clickdot", "org.freedesktop.weston.wayland-clickdot"),
                                           ("term", "Terminal", "weston-terminal", "org.freedesktop.weston.wayland-terminal")] {
            let categories = id == "flower" ? flowerCategories : id == "dots" ? dotsCategories : "Utility;"
            try AgentProcess.installDesktopEntry(id, """
                [Desktop Entry]
                Type=Application
                Name=\(name)
                Exec=\(program)
                StartupWMClass=\(appID)
                Categories=\(categories)
                """, environment: environment)
        }
        return try AgentProcess(environment: environment, desk: kwin)
    }

    private func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    private func isMinimized(_ window: Process) -> Bool? {
        (try? kwin.windows())?.first { $0.pid == window.processIdentifier }?.minimized
    }

    /// The countdown in dunst, the disable, the window activated again and "Continue for 3 s" chosen
    /// in dunst's menu (DesktopScenarios), followed and minimized through the KWin script.
    func testCountdownDisableReactivationAndContinueOnKWin() throws {
        let dunst = try DunstControl(desktop: kwin)
        let run = try DesktopScenarios.countdownDisableReopenAndContinue(on: kwin) { agent in
            let backends = try agent.status().backends
            XCTAssertTrue(backends["focus"]?.hasPrefix("KWin script") == true, "\(backends)")
            XCTAssertTrue(backends["minimize"]?.hasPrefix("KWin script") == true, "\(backends)")
            XCTAssertTrue(eventually { (try? dunst.displayedCount()).map { $0 >= 1 } ?? false }, "dunst shows the countdown")
        }
        let report = try JSONDecoder().decode(UsageReport.self, from: Data(try run.agent.cli(["report", "--json"]).out.utf8))
        XCTAssertEqual(try XCTUnwrap(report.apps.first { $0.id == "stnotes" }).seconds, 9, accuracy: 1)
        XCTAssertEqual(report.limitsReached.map(\.app), ["stnotes", "stnotes"])
    }

    func testAModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce() throws {
        try DesktopScenarios.aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce(on: kwin)
    }

    func testAfterKWinRestartsTheAgentFollowsFocusAgain() throws {
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n")
        defer { agent.stop() }
        // The restart takes this window with it.
        try kwin.openWindow("weston-clickdot")
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == "dots" }, agent.log)

        try kwin.restartCompositor()
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == Optional<AppID>.none }, "nothing counts while KWin is away")
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        XCTAssertTrue(eventually(8) { (try? self.status(agent).focused) == "flower" }, agent.log)
        XCTAssertTrue(agent.log.contains("lost the desktop"), agent.log)
    }

    /// Wind Down's warm grayscale shows as Night Light's warm tint (KWin has no grayscale before
    /// Plasma 6.6); the user's own Night Light settings come back when the agent stops.
    func testWindDownWarmsTheScreenThroughNightLightAndStopPutsTheUsersSettingsBack() throws {
        try "[NightColor]\nActive=false\nNightTemperature=4800\n".write(to: kwin.kwinrc, atomically: true, encoding: .utf8)
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n",
                                   sharingKWinSettings: true)
        defer { agent.stop() }
        XCTAssertEqual(try status(agent).backends["screen filter"],
                       "KWin Night Light; shows grayscale unavailable before Plasma 6.6; warm tint only (KDE: Night Light)")
        let switched = try agent.cli(["mode", "wind-down"])
        XCTAssertEqual(switched.status, 0, switched.err)
        XCTAssertTrue(eventually {
            (try? self.kwin.nightLight("enabled"))??.boolValue == true
                && (try? self.kwin.nightLight("mode"))??.uint32Value == 3
                && (try? self.kwin.nightLight("targetTemperature"))??.uint32Value == UInt32(ColorFilter.defaultWarmTemperature)
        }, "KWin's Night Light is on, constant, at the warm temperature")

        XCTAssertEqual(agent.stop(), 0, agent.log)
        XCTAssertTrue(eventually { (try? self.kwin.nightLight("enabled"))??.boolValue == false })
        let settings = try KeyFile(parsing: String(contentsOf: kwin.kwinrc, encoding: .utf8))
        XCTAssertEqual(settings.entries(in: "NightColor").map { "\($0.key)=\($0.value)" }, ["Active=false", "NightTemperature=4800"])
    }

    /// Without a running agent, `doctor` starts the providers dry on KWin and names them; the
    /// script it loaded is unloaded again.
    func testDoctorNamesTheKWinProvidersWithoutAnAgent() throws {
        let environment = try AgentProcess.freshEnvironment(on: kwin, config: "[general]\nidle-after = 1h\n")
        let doctor = try AgentProcess.run(["doctor"], environment: environment)
        let lines = doctor.out.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("focus") && $0.contains("KWin script") }, doctor.out)
        XCTAssertTrue(lines.contains { $0.contains("minimize") && $0.contains("KWin script") }, doctor.out)
        XCTAssertTrue(lines.contains { $0.contains("KWin Night Light") && $0.contains("grayscale unavailable before Plasma 6.6; warm tint only") },
                      doctor.out)
        XCTAssertTrue(eventually {
            (try? self.kwin.callKWin(path: "/Scripting", interface: "org.kde.kwin.Scripting", method: "isScriptLoaded",
                                     arguments: [.string("screentime-focus")]))?.first?.boolValue == false
        }, "doctor's dry start unloads its script")
    }

    /// KWin's ext_idle_notifier_v1 (the Wayland idle provider) says when nobody used the keyboard or
    /// mouse for idle-after: the focused app's time stops counting (DesktopScenarios). Nothing here
    /// can fake input on KWin's virtual output, so the way back is left to the other desktops.
    func testIdleTimeIsNotCountedOnKWin() throws {
        try DesktopScenarios.idleTimeIsNotCounted(on: kwin, provider: "Wayland idle (ext_idle_notifier_v1)", userInput: nil)
    }

    /// A title rule's app over its limit is minimized in its own window only, also once renamed to
    /// match: titles travel for the apps a rule names (DesktopScenarios).
    func testTitleRuleAppIsMinimizedInItsOwnWindowOnly() throws {
        try DesktopScenarios.aTitleRuleDisablesOnlyTheWindowItMatches(on: kwin)
    }

    /// Killed while the screen is warm, the agent cannot restore; `screentime display restore`
    /// (the unit's ExecStopPost) puts the user's Night Light back from the saved copy.
    func testDisplayRestoreAfterAKilledAgentPutsTheUsersNightLightBack() throws {
        try "[NightColor]\nActive=false\nNightTemperature=4800\n".write(to: kwin.kwinrc, atomically: true, encoding: .utf8)
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n",
                                   sharingKWinSettings: true)
        defer { agent.stop() }
        XCTAssertEqual(try agent.cli(["mode", "wind-down"]).status, 0)
        XCTAssertTrue(eventually { (try? self.kwin.nightLight("enabled"))??.boolValue == true })
        // Wind Down silences the harness's dunst too, the user's state saved first: killed only after that.
        let saved = try XCTUnwrap(agent.environment["XDG_STATE_HOME"]) + "/screentime/notifications-saved-dunst"
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: saved) }, "dunst's own state saved; log: \(agent.log)")
        agent.stop(signal: SIGKILL)
        XCTAssertEqual((try? kwin.nightLight("enabled"))??.boolValue, true, "nobody restored it yet")

        let restored = try AgentProcess.run(["display", "restore"], environment: agent.environment)
        XCTAssertEqual(restored.status, 0, restored.err)
        // Wind Down silenced the harness's dunst too: its own state comes back with the colours.
        XCTAssertEqual(restored.out, "gave dunst its own do-not-disturb state back\nrestored the colours through KWin Night Light\n")
        XCTAssertTrue(eventually { (try? self.kwin.nightLight("enabled"))??.boolValue == false })
        let settings = try KeyFile(parsing: String(contentsOf: kwin.kwinrc, encoding: .utf8))
        XCTAssertEqual(settings.entries(in: "NightColor").map { "\($0.key)=\($0.value)" }, ["Active=false", "NightTemperature=4800"])
    }
}
