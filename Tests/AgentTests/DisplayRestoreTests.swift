import Foundation
import Harnesses
import XCTest

/// The screen's colours on every exit path, read back from the real X server's CRTC gamma.
final class DisplayRestoreTests: XCTestCase {
    var desk: DesktopHarness!
    var randr: RandRFixture!
    var original: RandRFixture.Ramp!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        randr = try RandRFixture(displayName: desk.display)
        // The user's own night-light ramps, which every exit must give back exactly.
        randr.setGamma(randr.nightLightRamp())
        original = randr.gamma()
        addTeardownBlock { [randr] in randr?.setGamma(randr!.identityRamp()) }
    }

    func startAgent() throws -> AgentProcess {
        try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"), desk: desk)
    }

    /// Switches to `mode` and waits for its fade to settle; returns the ramps it settled on.
    @discardableResult
    func switchMode(_ agent: AgentProcess, to mode: String) throws -> RandRFixture.Ramp {
        let result = try agent.cli(["mode", mode])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(eventually(5) { self.randr.gamma() != self.original }, "the screen changes for \(mode)")
        var last = randr.gamma()
        XCTAssertTrue(eventually(5) {
            usleep(300_000)
            let now = self.randr.gamma()
            defer { last = now }
            return now == last
        }, "the fade settles")
        return last
    }

    /// Switches to Wind Down (warm grayscale: warm, dimmed ramps on a CRTC without CTM).
    func windDown(_ agent: AgentProcess) throws {
        let settled = try switchMode(agent, to: "wind-down")
        XCTAssertLessThan(settled.blue.last!, original.blue.last!, "blue is cut for warmth")
    }

    func testProductivityWithoutCTMDimsTheUsersRampsTo70PercentAndSigtermRestoresThem() throws {
        let agent = try startAgent()
        let settled = try switchMode(agent, to: "productivity")
        for (shown, own) in [(settled.red, original.red), (settled.green, original.green), (settled.blue, original.blue)] {
            XCTAssertEqual(shown, own.map { UInt16((Double($0) * 0.7).rounded()) }, "grayscale stands in as 70 % of the user's own ramps")
        }
        XCTAssertEqual(agent.stop(signal: SIGTERM), 0, agent.log)
        XCTAssertEqual(randr.gamma(), original)
    }

    func testSigtermRestoresTheUsersRampsExactly() throws {
        let agent = try startAgent()
        try windDown(agent)
        XCTAssertEqual(agent.stop(signal: SIGTERM), 0, agent.log)
        XCTAssertEqual(randr.gamma(), original)
    }

    func testLeavingTheModeRestoresAndSigkillIsRepairedByDisplayRestore() throws {
        let agent = try startAgent()
        try windDown(agent)
        XCTAssertEqual(try agent.cli(["mode", "standard"]).status, 0)
        XCTAssertTrue(eventually(5) { self.randr.gamma() == self.original }, "back to the user's ramps")

        try windDown(agent)
        agent.stop(signal: SIGKILL)
        XCTAssertNotEqual(randr.gamma(), original, "a killed agent cannot restore")
        let restore = try agent.cli(["display", "restore"])
        XCTAssertEqual(restore.status, 0, restore.err)
        XCTAssertEqual(randr.gamma(), original)
    }

    func testTheNextStartRestoresWhatAKilledAgentLeft() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let first = try AgentProcess(environment: environment, desk: desk)
        try windDown(first)
        first.stop(signal: SIGKILL)
        XCTAssertEqual(try first.cli(["mode", "auto"]).status, 69, "no agent until the next start")
        let second = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(try second.cli(["mode", "auto"]).status, 0)
        XCTAssertTrue(eventually(5) { self.randr.gamma() == self.original })
    }
}
