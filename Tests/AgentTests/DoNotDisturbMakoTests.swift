@testable import Agent
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Do-not-disturb on the sway harness's real mako: its `do-not-disturb` mode while silenced, as
/// `makoctl mode` lists it, and the user's own modes given back.
final class DoNotDisturbMakoTests: XCTestCase {
    var sway: SwayHarness!
    var home: URL!

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
        home = sway.root.appendingPathComponent("dnd-\(UUID().uuidString.prefix(8))")
        try sway.runAsUser("makoctl", ["mode", "-s", "default"])
        addTeardownBlock { [unowned self] in _ = try? sway.runAsUser("makoctl", ["mode", "-s", "default"]) }
    }

    func modes() throws -> [String] {
        try sway.runAsUser("makoctl", ["mode"]).split(separator: "\n").map(String.init)
    }

    func fixture() throws -> DoNotDisturbFixture {
        try DoNotDisturbFixture.started(busAddress: sway.busAddress, home: home, expecting: "mako")
    }

    func testSilencingAddsTheModeAndTheEndTakesItOut() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertEqual(try modes(), ["default", "do-not-disturb"])
        XCTAssertEqual(dnd.savedState(server: "mako"), "false")
        // A mode the user sets meanwhile stays.
        try sway.runAsUser("makoctl", ["mode", "-a", "away"])
        dnd.set(.normal)
        XCTAssertEqual(try modes(), ["away", "default"])
        XCTAssertNil(dnd.savedState(server: "mako"))
    }

    func testTheUsersOwnDoNotDisturbStays() throws {
        try sway.runAsUser("makoctl", ["mode", "-a", "do-not-disturb"])
        let dnd = try fixture()
        dnd.set(.silenced)
        dnd.set(.normal)
        XCTAssertEqual(try modes(), ["default", "do-not-disturb"])
    }

    func testExitAndTheNextStartAfterAKillGiveTheModesBack() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        dnd.controller.restoreAtExit(advanceClock: {})
        XCTAssertEqual(try modes(), ["default"])
        let killed = try fixture()
        killed.set(.silenced)
        killed.kill()
        XCTAssertEqual(try modes(), ["default", "do-not-disturb"])
        let next = try fixture()
        XCTAssertTrue(try next.pump { try modes() == ["default"] }, "modes: \((try? modes()) ?? [])")
    }

    func testDoctorSaysWhenMakosConfigLacksTheMode() throws {
        var environment = sway.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        let lacking = try AgentProcess.run(["doctor"], environment: environment)
        XCTAssertTrue(lacking.out.contains("warn do-not-disturb  mako"), lacking.out)
        XCTAssertTrue(lacking.out.contains("mako's config has no [mode=do-not-disturb] section"), lacking.out)
        let config = home.appendingPathComponent(".config/mako/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[mode=do-not-disturb]\ninvisible=1\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try AgentProcess.run(["doctor"], environment: environment)
        XCTAssertTrue(configured.out.contains("ok   do-not-disturb  mako"), configured.out)
    }

    /// The agent on sway: Productivity adds mako's mode, Standard and exit take it out.
    func testTheAgentsModesSetMakosModeAndTakeItOut() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: sway, config: ""), desk: sway)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(try eventually { try modes() == ["default", "do-not-disturb"] }, agent.log)
        XCTAssertEqual(try agent.cli(["mode", "standard"]).status, 0)
        XCTAssertTrue(try eventually { try modes() == ["default"] }, agent.log)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(try eventually { try modes() == ["default", "do-not-disturb"] }, agent.log)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertEqual(try modes(), ["default"], "given back at exit; log: \(agent.log)")
    }
}
