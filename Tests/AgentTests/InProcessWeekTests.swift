import Foundation
import LocalSystem
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest
@testable import Agent

/// A week of a user's life, in seconds, through the whole agent in the test's process
/// (`InProcessAgentTestCase`). Other files extend it with their own in-process scenarios
/// (InProcessCommitmentTests.swift).
final class InProcessWeekTests: InProcessAgentTestCase {
    func testAWeekOfAUsersLifeRunsInProcessOnAVirtualClock() throws {
        let started = ContinuousClock.now
        let zone = SystemTimeZone()
        // Monday 1 June 2026, 08:00 in the suite's zone: each day starts at 04:00.
        func local(day: Int, hour: Int) -> Date {
            zone.instant(of: CivilDate(year: 2026, month: 6, day: 1 + day), at: WallTime(secondsOfDay: hour * 3600))
        }
        let monday = local(day: 0, hour: 8)
        let clock = VirtualClock(monday)
        let desktop = ScriptedDesktop()
        let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[limits]\ndefault = 3h\n"
        let environment = try environment(config: config)
        var agent = try startAgent(environment, clock: clock, desktop: desktop)
        var expected: [Int: [AppID: TimeInterval]] = [:]

        for day in 0..<7 {
            var today: [AppID: TimeInterval] = [:]
            // The morning: two hours of notes, a pause away from the keyboard, an hour of the editor.
            // From Thursday notes has 30 minutes a day: minimized then, and the focus goes with it.
            desktop.focus("stnotes")
            try live(2 * 3600, agent, clock)
            today["stnotes", default: 0] += day > 2 ? 1800 : 2 * 3600
            desktop.idle(true, at: clock.wall)
            try live(30 * 60, agent, clock)
            desktop.idle(false, at: clock.wall)
            desktop.focus("steditor", window: 2)
            try live(3600, agent, clock)
            today["steditor", default: 0] += 3600

            if day == 2 {
                // Wednesday: a limit on notes, set by editing the config as the CLI does. The agent
                // sees the file change in the same turn and disables notes at once (2 h used today).
                try writeConfig(config + "stnotes = 30m\n", environment)
                try live(1, agent, clock)
                desktop.focus("stnotes")
                try live(60, agent, clock)
                XCTAssertEqual(desktop.minimized.last, AppID("stnotes"), "over its new limit: minimized")
                XCTAssertEqual(agent.status(at: clock.wall).apps.first { $0.id == "stnotes" }?.state, "disabled")
                // Continue, as the card's button asks: the grant counts.
                agent.send(.continueRequested(AppID("stnotes")))
                desktop.focus("stnotes")
                try live(60, agent, clock)
                today["stnotes", default: 0] += 60
                desktop.focus("steditor", window: 2)
                try live(1, agent, clock)
                today["steditor", default: 0] += 1
                try live(300, agent, clock)
                today["steditor", default: 0] += 300
            }
            if day == 4 {
                // Friday: the agent restarts (a login); what it counted is in the store.
                agent.shutDown(reason: "a test's restart")
                agent = try startAgent(environment, clock: clock, desktop: desktop)
                try live(60, agent, clock)
                today["steditor", default: 0] += 60
            }
            // The evening: the laptop closed for the night (a suspend), nothing counted while asleep.
            desktop.focus(nil)
            try live(1, agent, clock)
            expected[day] = today
            clock.suspend(local(day: day + 1, hour: 8).timeIntervalSince(clock.wall))
            try live(1, agent, clock)
        }
        agent.shutDown(reason: "the end of the week")

        let store = try UsageDatabase(path: XDGPaths.databaseFile(environment: environment), readOnly: true)
        XCTAssertEqual(desktop.minimized.filter { $0 == AppID("stnotes") }.count, 5, "at the new limit, then each day from Thursday")
        for day in 0..<7 {
            let start = local(day: day, hour: 4)
            let stored = try store.usageByApp(from: start, to: start.addingTimeInterval(86400))
            for (app, seconds) in expected[day] ?? [:] {
                XCTAssertEqual(stored[app] ?? 0, seconds, accuracy: 61, "day \(day), \(app)")
            }
            XCTAssertNil(stored[AppID("screentime")], "day \(day): nothing counted as the agent")
        }
        let took = started.duration(to: .now)
        print("in-process week: \(took)")
        XCTAssertLessThan(took, .seconds(10), "a week of a user's life in well under 10 s")
    }
}
