import Foundation
import LocalSystem
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest
@testable import Agent

/// Loosening waits for the day start, whichever way it comes (the CLI, D-Bus, the config file
/// edited by hand, the agent stopped meanwhile); tightening and a typo's fix are at once. The
/// whole agent in process on a virtual clock (InProcessWeekTests).
extension InProcessWeekTests {
    /// The limit the engine acts on.
    func limit(_ app: AppID, _ agent: AgentRunner, _ clock: VirtualClock) -> Int? {
        agent.engine.settings.limit(for: app).map { Int($0) }
    }

    /// The next 04:00 in the suite's zone after `instant`.
    func nextDayStart(after instant: Date) -> Date { DayBoundary().end(of: instant, in: SystemTimeZone()) }

    /// The CLI as a user runs it, against the same files; its clock is the machine's, so these
    /// scenarios start the virtual clock at the machine's now.
    func cli(_ arguments: [String], _ environment: [String: String]) throws -> String {
        var environment = environment
        environment["TZ"] = ProcessInfo.processInfo.environment["TZ"]
        environment["PATH"] = "/usr/bin:/bin"
        let result = try AgentProcess.run(arguments, environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        return result.out
    }

    func testALimitRaisedFromTheCLIWaitsForTheDayStartAndCanBeTakenBack() throws {
        let clock = VirtualClock(Date())
        let desktop = ScriptedDesktop()
        let environment = try environment(config: "[general]\nidle-after = 1h\n[limits]\ndefault = 1h\n")
        let agent = try startAgent(environment, clock: clock, desktop: desktop)
        desktop.focus("stnotes")
        try live(60, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600)

        let said = try cli(["limit", "set", "stnotes", "2h"], environment)
        XCTAssertTrue(said.hasPrefix("stnotes: 2h a day from ") && said.hasSuffix("it stays 1h\n"), said)
        try live(1, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600, "the raise waits")
        XCTAssertTrue(try cli(["pending"], environment).contains("id: limit:stnotes"))

        // Taken back: at the day start nothing changes.
        XCTAssertEqual(try cli(["pending", "cancel", "limit:stnotes"], environment), "limit:stnotes: taken back; what holds now stays\n")
        try live(1, agent, clock)
        let dayStart = nextDayStart(after: clock.wall)
        try live(dayStart.timeIntervalSince(clock.wall) + 60, step: 900, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600, "taken back, it never came")

        // Made again, it holds from the next day start, and not a second before.
        clock.wall = Date()
        _ = try cli(["limit", "set", "stnotes", "2h"], environment)
        try live(1, agent, clock)
        let next = nextDayStart(after: clock.wall)
        try live(next.timeIntervalSince(clock.wall) - 2, step: 900, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600, "two seconds before the day start")
        try live(3, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 7200, "from the day start")
        agent.shutDown(reason: "the test's end")
    }

    func testLooseningOverDBusWaitsAndATypoIsFixedAtOnce() throws {
        let clock = VirtualClock(Date())
        let desktop = ScriptedDesktop()
        let environment = try environment(config: "[general]\nidle-after = 1h\n")
        let agent = try startAgent(environment, clock: clock, desktop: desktop)
        desktop.focus("stgame")
        try live(60, agent, clock)
        let service = AgentService(runner: agent)

        // A typo (1 minute instead of 1 hour), and its fix two minutes later: both at once.
        _ = try service.call(AgentInterface.Method.setLimit, [.string("stgame"), .uint64(60)])
        try live(1, agent, clock)
        XCTAssertEqual(limit("stgame", agent, clock), 60, "tightening is instant")
        try live(120, agent, clock)
        _ = try service.call(AgentInterface.Method.removeLimit, [.string("stgame")])
        XCTAssertEqual(limit("stgame", agent, clock), 3600, "undoing within the typo window is at once")

        // Marking it important: waits for the day start. Another marked and taken back never comes.
        let waiting = try service.call(AgentInterface.Method.setExemption, [.string("important"), .string("steditor"), .bool(true)])
        XCTAssertTrue(waiting.first?.stringsValue?.first?.hasPrefix("steditor: important (no limit) from ") == true,
                      "the reply says when it applies: \(waiting)")
        _ = try service.call(AgentInterface.Method.setExemption, [.string("important"), .string("stgame"), .bool(true)])
        try live(600, agent, clock)
        _ = try service.call(AgentInterface.Method.setExemption, [.string("important"), .string("steditor"), .bool(false)])
        XCTAssertEqual(limit("stgame", agent, clock), 3600)
        XCTAssertEqual(try service.call(AgentInterface.Method.listExemptions, [.string("important")]), [.strings([])], "what holds")
        let dayStart = nextDayStart(after: clock.wall)
        try live(dayStart.timeIntervalSince(clock.wall) + 1, step: 900, agent, clock)
        XCTAssertNil(limit("stgame", agent, clock), "important from the day start")
        XCTAssertEqual(try service.call(AgentInterface.Method.listExemptions, [.string("important")]), [.strings(["stgame"])],
                       "steditor was taken back")
        agent.shutDown(reason: "the test's end")
    }

    func testAScheduleRemovedByHandKeepsTheBlockUntilTheDayStartEvenAcrossARestart() throws {
        let zone = SystemTimeZone()
        // Monday 1 June 2026, 09:30: a Productivity block from 09:00 to 21:00 holds.
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 9, minute: 30)))
        let desktop = ScriptedDesktop()
        let base = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n"
        let environment = try environment(config: base + "[schedule]\nwork = productivity 09:00 12h\n")
        var agent = try startAgent(environment, clock: clock, desktop: desktop)
        try live(60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity")

        try writeConfig(base, environment)
        try live(60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity", "the block stays until the day start")

        // Stopping the agent and starting it again is no way around: the book outlives it.
        agent.shutDown(reason: "stopped by the test")
        try writeConfig(base + "productivity = off\n", environment)
        agent = try startAgent(environment, clock: clock, desktop: desktop)
        try live(60, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "productivity", "after a restart too")

        // The next day at 09:30 the removal and the turning off hold.
        try live(24 * 3600, step: 900, agent, clock)
        XCTAssertEqual(agent.status(at: clock.wall).mode, "standard")
        XCTAssertFalse(agent.engine.settings.modes.enabledModes.contains(Mode.productivity))
        agent.shutDown(reason: "the test's end")
    }

    func testAHandEditOfTheConfigIsJudgedAsACommandIs() throws {
        let zone = SystemTimeZone()
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 10, minute: 0)))
        let base = "[general]\nidle-after = 1h\n[limits]\ndefault = 1h\n"
        let environment = try environment(config: base)
        let agent = try startAgent(environment, clock: clock, desktop: ScriptedDesktop())
        try live(60, agent, clock)

        // A typo by hand (1 minute) and its fix two minutes later: both at once.
        try writeConfig(base + "stnotes = 1m\n", environment)
        try live(1, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 60)
        try live(120, agent, clock)
        try writeConfig(base, environment)
        try live(1, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600, "the fix within the typo window is at once")

        // A raise by hand waits; put back by hand, it is taken back.
        try writeConfig(base + "stnotes = 3h\n", environment)
        try live(1, agent, clock)
        XCTAssertEqual(limit("stnotes", agent, clock), 3600)
        try writeConfig(base, environment)
        try live(1, agent, clock)
        try writeConfig(base + "stgame = 3h\n", environment)
        try live(1, agent, clock)
        let dayStart = DayBoundary().end(of: clock.wall, in: zone)
        try live(dayStart.timeIntervalSince(clock.wall) + 60, step: 900, agent, clock)
        XCTAssertEqual(limit("stgame", agent, clock), 3 * 3600, "applied at the day start")
        XCTAssertEqual(limit("stnotes", agent, clock), 3600, "taken back, never applied")
        agent.shutDown(reason: "the test's end")
    }
}
