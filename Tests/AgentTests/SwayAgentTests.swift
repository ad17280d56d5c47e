import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// The agent as a user runs it on sway (headless, real), with mako as the notification server:
/// focus and minimize through the sway IPC.
final class SwayAgentTests: XCTestCase {
    var sway: SwayHarness!
    var monitor: BusMonitor!
    var opened: [SwayHarness.Window] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
        monitor = try BusMonitor(address: sway.busAddress)
    }

    override func tearDown() {
        for window in opened { sway.close(window) }
    }

    func open(_ appID: String) throws -> SwayHarness.Window {
        let window = try sway.openWindow(appID: appID)
        opened.append(window)
        return window
    }

    func startAgent(config: String) throws -> AgentProcess {
        try AgentProcess(environment: AgentProcess.freshEnvironment(on: sway, config: config), desk: sway)
    }

    func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    func inScratchpad(_ window: SwayHarness.Window) -> Bool {
        (try? sway.state(of: window)?.inScratchpad) == true
    }

    func testFocusedWindowsTimeIsCountedByItsAppID() throws {
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n")
        let other = try open("stother")
        _ = try open("stcounted")
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID("stcounted") }, agent.log)
        let backends = try status(agent).backends
        XCTAssertTrue(backends["focus"]?.hasPrefix("sway IPC") == true, "\(backends)")
        XCTAssertTrue(backends["minimize"]?.hasPrefix("sway IPC") == true, "\(backends)")
        usleep(2_200_000)
        try sway.focus(other)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID("stother") }, agent.log)
        let used = try XCTUnwrap(status(agent).apps.first { $0.id == "stcounted" }).usedSeconds
        XCTAssertEqual(used, 2.2, accuracy: 0.6)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// The countdown in mako, the disable to the scratchpad, shown again and "Continue" chosen in
    /// mako (DesktopScenarios).
    func testCountdownInMakoDisableToTheScratchpadShowAgainAndContinue() throws {
        _ = try DesktopScenarios.countdownDisableReopenAndContinue(on: sway) { _ in
            XCTAssertTrue(eventually { (try? self.sway.notifications())?.contains { $0.summary == "stnotes: 4 s left today" } == true },
                          "mako shows the countdown")
        }
    }

    func testAModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce() throws {
        try DesktopScenarios.aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce(on: sway)
    }

    /// A title rule's app over its limit goes to the scratchpad in its own window only, also once
    /// renamed to match (titles come with sway's events; DesktopScenarios).
    func testTitleRuleAppIsMovedToTheScratchpadInItsOwnWindowOnly() throws {
        try DesktopScenarios.aTitleRuleDisablesOnlyTheWindowItMatches(on: sway)
    }

    /// sway exiting: the agent says so, stops counting and carries on (its bus still answers).
    func testSwayGoingAwayStopsCountingAndTheAgentCarriesOn() throws {
        let own = try SwayHarness()
        defer { own.stop() }
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: own, config: "[general]\nidle-after = 1h\n"),
                                     desk: own)
        _ = try own.openWindow(appID: "stleft")
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID("stleft") }, agent.log)
        own.stopCompositor()
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == Optional<AppID>.none }, agent.log)
        XCTAssertTrue(agent.log.contains("lost the desktop"), agent.log)
        XCTAssertTrue(agent.process.isRunning)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }
}
