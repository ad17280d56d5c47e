import Foundation
import LocalSystem
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest
@testable import Agent

/// `screentime pause`: recorded, counting down, ending by itself, and a loosening like the others.
/// The whole agent in process on a virtual clock (InProcessWeekTests).
extension InProcessWeekTests {
    func pauseScenario(config: String) throws -> (AgentRunner, VirtualClock, AgentService) {
        let zone = SystemTimeZone()
        // Monday 1 June 2026, 10:00.
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 10, minute: 0)))
        let desktop = ScriptedDesktop()
        let environment = try environment(config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n" + config)
        let agent = try startAgent(environment, clock: clock, desktop: desktop)
        try live(60, agent, clock)
        return (agent, clock, AgentService(runner: agent))
    }

    func testAPauseWithLoosenNowHoldsAtOnceCountsDownAndEndsByItself() throws {
        let (agent, clock, service) = try pauseScenario(config: "[commitment]\nloosen = now\n")
        let reply = try service.call(AgentInterface.Method.pause, [.uint64(1800)])
        XCTAssertEqual(reply, [.int64(Int64(clock.wall.timeIntervalSince1970)), .int64(Int64(clock.wall.timeIntervalSince1970) + 1800)])
        let status = agent.status(at: clock.wall)
        XCTAssertEqual(status.mode, "cheat-day", "as free as a Cheat Day")
        XCTAssertTrue(status.reason.hasPrefix("Paused until "), status.reason)
        try live(29 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "cheat-day")
        try live(2 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard", "the pause ended by itself")
        XCTAssertEqual(try agent.store.pauses(notOverAt: clock.wall.addingTimeInterval(-3600)).count, 1, "recorded as a pause")
        agent.shutDown(reason: "the test's end")
    }

    func testAPauseWaitsForTheDayStartByDefaultAndEndingItIsInstant() throws {
        let (agent, clock, service) = try pauseScenario(config: "")
        let reply = try service.call(AgentInterface.Method.pause, [.uint64(3600)])
        let dayStart = DayBoundary().end(of: clock.wall, in: SystemTimeZone())
        XCTAssertEqual(reply.first, .int64(Int64(dayStart.timeIntervalSince1970)), "a loosening: from the next day start")
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        try live(dayStart.timeIntervalSince(clock.wall) + 60, step: 900, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "cheat-day")
        _ = try service.call(AgentInterface.Method.endPause, [])
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard", "ending it is a tightening: at once")
        XCTAssertThrowsError(try service.call(AgentInterface.Method.endPause, []))
        XCTAssertThrowsError(try service.call(AgentInterface.Method.pause, [.uint64(30)]), "shorter than a minute")
        agent.shutDown(reason: "the test's end")
    }
}
