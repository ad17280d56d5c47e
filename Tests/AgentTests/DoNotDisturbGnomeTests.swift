@testable import DoNotDisturb
@testable import Agent
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Do-not-disturb on the headless GNOME Shell harness: `show-banners` off while silenced, and the
/// user's own value given back. The values are read and written by the shell (as its Do Not
/// Disturb switch writes them, and as the agent does through the extension); `gsettings get`
/// sees them in the session's dconf once the shell has handed them on.
final class DoNotDisturbGnomeTests: XCTestCase {
    var shell: GnomeShellHarness!
    var home: URL!

    override func setUpWithError() throws {
        shell = try GnomeShellHarness.shared()
        home = shell.root.appendingPathComponent("dnd-\(UUID().uuidString.prefix(8))")
        try setBanners(true)
        addTeardownBlock { [unowned self] in try? setBanners(true) }
    }

    func banners() throws -> String { try appBanners("") }

    /// An app's `show-banners` (the global one for ""), as the shell has it.
    func appBanners(_ id: String) throws -> String {
        String(try shell.callShell("GetShowBanners", [.string(id)]).first?.boolValue ?? false)
    }

    func setBanners(_ on: Bool) throws {
        try shell.writeSetting(GnomeDoNotDisturb.schema, key: "show-banners", .bool(on))
    }

    /// gsettings as the user runs it in the shell's session, to read.
    @discardableResult
    func gsettings(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("gsettings"))
        process.arguments = arguments
        process.environment = shell.environment
        return try process.checkedOutput("gsettings")
    }

    func fixture() throws -> DoNotDisturbFixture {
        try DoNotDisturbFixture.started(busAddress: shell.busAddress, home: home, session: shell.environment, expecting: "GNOME Shell")
    }

    func testSilencingTurnsBannersOffAndTheEndGivesThemBack() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertEqual(try banners(), "false")
        XCTAssertEqual(dnd.savedState(server: "GNOME Shell"), "true")
        dnd.set(.normal)
        XCTAssertEqual(try banners(), "true")
        XCTAssertNil(dnd.savedState(server: "GNOME Shell"))
    }

    func testTheUsersOwnChoiceStaysAndExitAndAKillGiveTheStateBack() throws {
        try setBanners(false)
        let own = try fixture()
        own.set(.silenced)
        own.set(.normal)
        XCTAssertEqual(try banners(), "false", "the user's own do-not-disturb stays")
        try setBanners(true)
        own.set(.silenced)
        own.controller.restoreAtExit(advanceClock: {})
        XCTAssertEqual(try banners(), "true", "given back at exit")
        let killed = try fixture()
        killed.set(.silenced)
        killed.kill()
        XCTAssertEqual(try banners(), "false")
        let next = try fixture()
        XCTAssertTrue(try next.pump { try banners() == "true" }, "given back at the next start")
    }

    func testSocialSilencesEveryAppButTheChosenOnesAndGivesEachItsOwnBack() throws {
        let apps = ["org-example-chat", "org-example-game", "org-example-news"]
        addTeardownBlock { [unowned self] in
            try? shell.writeSetting(GnomeDoNotDisturb.schema, key: "application-children", nil)
            for app in apps { try? shell.writeSetting(GnomeDoNotDisturb.appSchemaID, path: GnomeDoNotDisturb.appPath(app), key: "show-banners", nil) }
        }
        // The apps GNOME has seen notify; the user had already turned News off.
        try shell.writeSetting(GnomeDoNotDisturb.schema, key: "application-children", .array(elementSignature: "s", apps.map { .string($0) }))
        try shell.writeSetting(GnomeDoNotDisturb.appSchemaID, path: GnomeDoNotDisturb.appPath("org-example-news"), key: "show-banners", .bool(false))
        let dnd = try fixture()
        dnd.controller.socialApps = { ["org.example.Chat"] }
        dnd.set(.onlyCallsMessagesAndChosenApps)
        XCTAssertEqual(try banners(), "true", "Social keeps banners on for the apps that pass")
        XCTAssertEqual(try apps.map(appBanners), ["true", "false", "false"])
        XCTAssertEqual(dnd.savedState(server: "GNOME Shell"), "apps:org-example-game=true,org-example-news=false")
        // From Social to a mode silencing everything: the apps get their own back, banners go off.
        dnd.set(.silenced)
        XCTAssertEqual(try banners(), "false")
        XCTAssertEqual(try apps.map(appBanners), ["true", "true", "false"])
        dnd.set(.onlyCallsMessagesAndChosenApps)
        dnd.set(.normal)
        XCTAssertEqual(try banners(), "true")
        XCTAssertEqual(try apps.map(appBanners), ["true", "true", "false"], "each app's own choice comes back")
    }

    func testGnomesKeyForAnApp() {
        XCTAssertEqual(GnomeDoNotDisturb.canonicalID("org.gnome.Nautilus"), "org-gnome-nautilus")
        XCTAssertEqual(GnomeDoNotDisturb.canonicalID("signal-desktop"), "signal-desktop")
        XCTAssertEqual(GnomeDoNotDisturb.canonicalID("com.example..Odd_App"), "com-example-odd-app")
        XCTAssertEqual(GnomeDoNotDisturb.strings(inVariant: "['a-b', 'c']\n"), ["a-b", "c"])
        XCTAssertEqual(GnomeDoNotDisturb.strings(inVariant: "@as []\n"), [])
    }

    /// The agent on the GNOME Shell harness: Productivity turns banners off, Standard gives them
    /// back, each written inside the shell by the extension (SetShowBanners), not by gsettings.
    func testTheAgentsModesTurnBannersOffAndBack() throws {
        var environment = try AgentProcess.freshEnvironment(on: shell, config: "")
        // gsettings reads the session's dconf database where the shell's session keeps it.
        environment["XDG_CONFIG_HOME"] = shell.environment["XDG_CONFIG_HOME"]
        let monitor = try BusMonitor(address: shell.busAddress, rules: ["type='method_call',interface='org.screentime.Shell',member='SetShowBanners'"])
        let agent = try AgentProcess(environment: environment, desk: shell)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(try eventually { try banners() == "false" }, agent.log)
        XCTAssertEqual(try agent.cli(["mode", "standard"]).status, 0)
        XCTAssertTrue(try eventually { try banners() == "true" }, agent.log)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(try eventually { try banners() == "false" }, agent.log)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertEqual(try banners(), "true", "given back at exit; log: \(agent.log)")
        XCTAssertTrue(try eventually {
            try gsettings(["get", GnomeDoNotDisturb.schema, "show-banners"]).hasPrefix("true")
        }, "and in the session's dconf, where it stays across logouts")
        try monitor.drain()
        let writes = monitor.messages.filter { $0.member == "SetShowBanners" }.map { "'\($0.arguments.first?.stringValue ?? "?")' \($0.arguments.last?.boolValue.map(String.init) ?? "?")" }
        XCTAssertEqual(writes, ["'' false", "'' true", "'' false", "'' true"], "the global switch (app ''), off and on twice, through the shell")
    }
}
