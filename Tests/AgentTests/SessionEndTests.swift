import Foundation
import XCTest
@testable import Agent

/// The session bus gone: the agent looks for it again for a minute, then leaves, as it does when
/// it starts without one. An agent whose session is over stays behind no longer, to join the
/// display and bus a later session brings up under the same names.
final class SessionEndTests: InProcessAgentTestCase {
    private let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n"

    /// An agent started, and its bus gone `seconds` later, turn by turn.
    private func agent(busGoneFor seconds: TimeInterval) throws -> (AgentRunner, VirtualClock) {
        let clock = VirtualClock(Date(timeIntervalSince1970: 1_780_300_800))
        let agent = try startAgent(try environment(config: config), clock: clock, desktop: ScriptedDesktop())
        try live(1, agent, clock)
        bus.kill()
        try live(seconds, step: 1, agent, clock)
        return (agent, clock)
    }

    func testABusGoneForAMinuteEndsTheSessionsAgent() throws {
        let (agent, clock) = try agent(busGoneFor: 50)
        XCTAssertNil(agent.bus, "the bus is gone")
        XCTAssertNil(agent.stopRequested, "still looked for 50 s after it went")
        try live(15, step: 1, agent, clock)
        XCTAssertEqual(agent.stopRequested, .sessionEnded, "gone for a minute: the session is over")
    }

    func testABusBackWithinTheMinuteKeepsTheAgent() throws {
        let (agent, clock) = try agent(busGoneFor: 40)
        try bus.start()
        try live(5, step: 1, agent, clock)
        XCTAssertNotNil(agent.bus, "reconnected to the restarted bus")
        try live(120, step: 1, agent, clock)
        XCTAssertNil(agent.stopRequested, "the agent stays")
        XCTAssertNotNil(agent.bus)
    }
}
