import Foundation
import LocalSystem
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest
@testable import Agent

/// Leaving a scheduled or automatic Productivity, Wind Down or Sleep early is a continue: asked
/// with the mode's words and time left, recorded, and Productivity keeps its 3 minutes at a time.
/// The whole agent in process on a virtual clock (InProcessWeekTests).
extension InProcessWeekTests {
    func exitScenario(config: String, at hour: Int, minute: Int = 0) throws -> (AgentRunner, VirtualClock, AgentService) {
        let zone = SystemTimeZone()
        // Monday 1 June 2026.
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: hour, minute: minute)))
        let environment = try environment(config: "[general]\nidle-after = 1h\n" + config)
        let agent = try startAgent(environment, clock: clock, desktop: ScriptedDesktop())
        try live(60, agent, clock)
        return (agent, clock, AgentService(runner: agent))
    }

    func leave(_ service: AgentService, _ mode: String, confirmed: Bool) throws -> (String, Double, String) {
        let reply = try service.call(AgentInterface.Method.leaveMode, [.string(mode), .bool(confirmed)])
        guard case .string(let outcome) = reply[0], case .double(let granted) = reply[1], case .string(let words) = reply[2] else {
            XCTFail("reply \(reply)")
            return ("", 0, "")
        }
        return (outcome, granted, words)
    }

    func exits(_ agent: AgentRunner, _ clock: VirtualClock) throws -> [ModeExitRecord] {
        try agent.store.modeExits(from: clock.wall.addingTimeInterval(-86_400), to: clock.wall.addingTimeInterval(1))
    }

    func testLeavingAScheduledProductivityIsThreeMinutesFirstThenItsEnd() throws {
        let (agent, clock, service) = try exitScenario(config: "[modes]\nautomatic = off\nbreaks = off\n[schedule]\nwork = productivity 09:00 3h\n",
                                                       at: 9, minute: 30)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity")

        let (asked, _, words) = try leave(service, "standard", confirmed: false)
        XCTAssertEqual(asked, "ask")
        XCTAssertTrue(words.hasPrefix("Productivity holds until "), words)
        XCTAssertTrue(words.contains("left)") && words.contains("Step out for 3 min?"), words)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity", "asking changes nothing")
        XCTAssertEqual(try exits(agent, clock), [])

        let (outcome, granted, _) = try leave(service, "standard", confirmed: true)
        XCTAssertEqual(outcome, "continue")
        XCTAssertEqual(granted, 180, "Productivity's 3 minutes at a time")
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        try live(4 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity", "back after the continue")

        let (second, _, offer) = try leave(service, "standard", confirmed: false)
        XCTAssertEqual(second, "ask")
        XCTAssertTrue(offer.contains("End Productivity now?"), "ending it is offered after the first continue: \(offer)")
        XCTAssertEqual(try leave(service, "standard", confirmed: true).0, "ended")
        try live(10 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")

        let ledger = try exits(agent, clock)
        XCTAssertEqual(ledger.map(\.mode), ["productivity", "productivity"])
        XCTAssertEqual(ledger.map(\.granted), [180, nil])
        XCTAssertEqual(ledger.map(\.how), ["terminal", "terminal"])
        XCTAssertEqual(ledger[0].left ?? 0, 2.5 * 3600 - 60, accuracy: 1, "what was left of the block")
        agent.shutDown(reason: "the test's end")
    }

    func testSetModeOverTheBusKeepsTheSameFriction() throws {
        let (agent, clock, service) = try exitScenario(config: "[modes]\nautomatic = off\nbreaks = off\n[schedule]\nwork = productivity 09:00 3h\n",
                                                       at: 10)
        _ = try service.call(AgentInterface.Method.setMode, [.string("social")])
        XCTAssertEqual(agent.status(at: clock.wall).mode, "social")
        try live(4 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity", "SetMode is no way around the 3 minutes")
        XCTAssertEqual(try exits(agent, clock).map(\.how), ["bus"])
        agent.shutDown(reason: "the test's end")
    }

    func testLeavingAutomaticWindDownAndSleepEndsThemAndIsRecorded() throws {
        let night = "[modes]\nbreaks = off\nbedtime = 23:00\nwake-time = 07:00\nwind-down-before = 1h\nsleep-after-wind-down = 2h\n"
        let (agent, clock, service) = try exitScenario(config: night, at: 22, minute: 30)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "wind-down")
        let (_, _, words) = try leave(service, "standard", confirmed: false)
        XCTAssertTrue(words.hasPrefix("Wind Down holds until ") && words.contains("End Wind Down now?"), words)
        XCTAssertEqual(try leave(service, "standard", confirmed: true).0, "ended")
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")

        // Sleep, two hours after Wind Down began (00:00).
        try live(2 * 3600, step: 600, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "sleep")
        XCTAssertEqual(try leave(service, "auto", confirmed: true).0, "switched", "auto is no leaving: it is the schedule")
        XCTAssertEqual(try leave(service, "standard", confirmed: true).0, "ended")
        XCTAssertEqual(try exits(agent, clock).map(\.mode), ["wind-down", "sleep"])
        agent.shutDown(reason: "the test's end")
    }

    func testLeavingAModeSwitchedOnByHandIsNoContinue() throws {
        let (agent, clock, service) = try exitScenario(config: "[modes]\nautomatic = off\nbreaks = off\n", at: 10)
        _ = try service.call(AgentInterface.Method.setMode, [.string("productivity")])
        XCTAssertEqual(try leave(service, "standard", confirmed: false).0, "switched")
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        XCTAssertEqual(try exits(agent, clock), [])
        agent.shutDown(reason: "the test's end")
    }

    /// A mode's card offers to end the mode where leaving ends it (Wind Down, Sleep, Productivity
    /// after its first continue), with the terminal's question; chosen, it is the same leave,
    /// recorded as the card's.
    func testTheModesCardOffersItsEndWhereLeavingEndsIt() throws {
        let (agent, clock, service) = try exitScenario(config: "[modes]\nautomatic = off\nbreaks = off\n[schedule]\nwork = productivity 09:00 3h\n",
                                                       at: 9, minute: 30)
        XCTAssertNil(agent.cardLeaveOffer(for: .notAllowed), "Productivity's first leave is its continue, which the card already has")
        XCTAssertEqual(try leave(service, "standard", confirmed: true).0, "continue")
        try live(4 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity")
        let offer = try XCTUnwrap(agent.cardLeaveOffer(for: .notAllowed), "after a continue the card may end it")
        XCTAssertTrue(offer.hasPrefix("Productivity holds until ") && offer.contains("12:00") && offer.contains("End Productivity now?"), offer)
        XCTAssertEqual(agent.cardLeaveOffer(for: .unlocked), offer)
        XCTAssertNil(agent.cardLeaveOffer(for: .limitReached), "a limit's card is about the app, not the mode")

        try agent.leaveModeFromCard()
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        XCTAssertNil(agent.cardLeaveOffer(for: .notAllowed), "nothing to end in Standard")
        let ledger = try exits(agent, clock)
        XCTAssertEqual(ledger.map(\.how), ["terminal", "card"])
        XCTAssertEqual(ledger.map(\.granted), [180, nil])
        try live(10 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard", "ended until the schedule's next change")
        agent.shutDown(reason: "the test's end")
    }

    func testAWindDownCardOffersItsEndAtOnce() throws {
        let night = "[modes]\nbreaks = off\nbedtime = 23:00\nwake-time = 07:00\nwind-down-before = 1h\nsleep-after-wind-down = 2h\n"
        let (agent, clock, _) = try exitScenario(config: night, at: 22, minute: 30)
        let offer = try XCTUnwrap(agent.cardLeaveOffer(for: .notAllowed))
        XCTAssertTrue(offer.hasPrefix("Wind Down holds until ") && offer.contains("End Wind Down now?"), offer)
        try agent.cardChosen(card: "no-such-card", key: CardChoice.leaveMode)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "wind-down", "an answer from no card shown changes nothing")
        try agent.leaveModeFromCard()
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        XCTAssertEqual(try exits(agent, clock).map(\.how), ["card"])
        agent.shutDown(reason: "the test's end")
    }

    /// A mode's own action outranks a switch made by hand before it: Wind Down switched on by
    /// hand, then "Go to bed", is Sleep; then "Start the day" ends it.
    func testGoingToBedFromAWindDownSwitchedOnByHandIsSleep() throws {
        let night = "[modes]\nbreaks = off\nbedtime = 23:00\nwake-time = 07:00\nwind-down-before = 1h\nsleep-after-wind-down = 2h\n"
        let (agent, clock, service) = try exitScenario(config: night, at: 20)
        _ = try service.call(AgentInterface.Method.setMode, [.string("wind-down")])
        XCTAssertEqual(agent.status(at: clock.wall).mode, "wind-down")
        _ = try service.call(AgentInterface.Method.bedtime, [])
        XCTAssertEqual(agent.status(at: clock.wall).mode, "sleep", "Go to bed says Sleep, and is Sleep")
        try live(10 * 60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "sleep")
        _ = try service.call(AgentInterface.Method.startDay, [])
        XCTAssertNotEqual(agent.status(at: clock.wall).mode, "sleep", "Start the day ends it")
        agent.shutDown(reason: "the test's end")
    }
}
