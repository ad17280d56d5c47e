import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

/// Two simulated weeks (Monday 16 to Monday 30 March 2026, through the spring daylight-saving change
/// in Central Europe), driven like the agent drives the resolver: ask for the mode and the next change,
/// jump the virtual clock to that change (or to the user's next action), repeat.
final class ModeResolverTests: XCTestCase {
    let zone = CentralEuropeanZone()

    /// What the user does, and when.
    struct UserAction {
        var at: Date
        var apply: (inout ModeInputs) throws -> Void
    }

    func testTwoSimulatedWeeks() throws {
        var inputs = ModeInputs()
        let setup = zone.at("2026-03-15 12:00")
        inputs.schedule = [
            try ScheduleEntry.parse(mode: "productivity", at: "09:00", for: "3h", every: "mon-fri", now: setup, zone: zone),
            try ScheduleEntry.parse(mode: "social", at: "18:00", for: "2h", every: "sat", now: setup, zone: zone),
            try ScheduleEntry.parse(mode: "productivity", at: "2026-03-28 10:00", for: "90m", now: setup, zone: zone),
        ]
        // A weekly calendar event on Wednesdays, 14:00-15:30, cancelled on the 25th (an EXDATE).
        inputs.calendar = ["2026-03-18", "2026-04-01"].map { day in
            CalendarInterval(mode: .productivity, start: zone.at("\(day) 14:00"), end: zone.at("\(day) 15:30"),
                             summary: "Productivity: writing", source: "work.ics")
        }
        let actions = [
            UserAction(at: zone.at("2026-03-17 14:00")) { $0.manual = ManualSwitch(mode: .social, since: self.zone.at("2026-03-17 14:00")) },
            UserAction(at: zone.at("2026-03-19 10:30")) { $0.manual = ManualSwitch(mode: .standard, since: self.zone.at("2026-03-19 10:30")) },
            UserAction(at: zone.at("2026-03-21 19:00")) { inputs in
                // 13 hours ahead: accepted.
                try inputs.cheatDays.book(start: self.zone.at("2026-03-22 08:00"), now: self.zone.at("2026-03-21 19:00"),
                                          zone: self.zone, id: "1")
            },
            UserAction(at: zone.at("2026-03-24 22:30")) { $0.sleepActions.stayUpAt = self.zone.at("2026-03-24 22:30") },
            UserAction(at: zone.at("2026-03-25 23:15")) { $0.sleepActions.bedtimeAt = self.zone.at("2026-03-25 23:15") },
            UserAction(at: zone.at("2026-03-26 07:10")) { $0.sleepActions.startDayAt = self.zone.at("2026-03-26 07:10") },
        ]

        let clock = VirtualClock(zone.at("2026-03-16 00:00"))
        let end = zone.at("2026-03-30 00:00")
        var pending = actions[...]
        var seen: [String] = []
        var lastMode: Mode?
        while clock.now < end {
            while let action = pending.first, action.at <= clock.now {
                try action.apply(&inputs)
                pending = pending.dropFirst()
            }
            let decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: clock.now)
            if decision.mode != lastMode {
                seen.append("\(zone.localDateTime(of: clock.now)) \(decision.mode.rawValue)")
                lastMode = decision.mode
            }
            let change = try XCTUnwrap(decision.next, "no change ahead at \(zone.localDateTime(of: clock.now))")
            XCTAssertGreaterThan(change.at, clock.now)
            XCTAssertNotEqual(change.mode, decision.mode)
            clock.set(min(change.at, pending.first?.at ?? change.at))
        }

        XCTAssertEqual(seen, expectedTwoWeeks(), diff(seen, expectedTwoWeeks()))
    }

    /// The expected changes, written from the rules: defaults 23:00 bedtime and 07:00 wake time give
    /// Wind Down at 22:00, Sleep at 02:00 (4 h later), Wake Up 06:00-09:00.
    func expectedTwoWeeks() -> [String] {
        var lines = ["2026-03-16 00:00 wind-down"]
        for offset in 0..<14 {
            let date = CivilDate(year: 2026, month: 3, day: 16).adding(days: offset)
            var day: [(String, String)] = [("02:00", "sleep"), ("06:00", "wake-up")]
            switch date.weekday {
            case .saturday: day += [("09:00", "standard"), ("18:00", "social"), ("20:00", "standard")]
            case .sunday: day += [("09:00", "standard")]
            default: day += [("09:00", "productivity"), ("12:00", "standard")]
            }
            if date.weekday == .wednesday, date.day != 25 { day += [("14:00", "productivity"), ("15:30", "standard")] }
            day.append(("22:00", "wind-down"))
            lines += day.map { "\(date) \($0.0) \($0.1)" }
        }
        func replace(_ old: [String], with new: [String]) {
            let index = lines.firstIndex(of: old[0]) ?? lines.count
            lines.removeAll { old.contains($0) }
            lines.insert(contentsOf: new, at: min(index, lines.count))
        }
        // Tue 17, 14:00 `mode social`: until the next boundary, Wind Down at 22:00.
        replace(["2026-03-17 22:00 wind-down"], with: ["2026-03-17 14:00 social", "2026-03-17 22:00 wind-down"])
        // Thu 19, 10:30 `mode standard` during scheduled Productivity: holds to 12:00, where Standard follows anyway.
        replace(["2026-03-19 12:00 standard"], with: ["2026-03-19 10:30 standard"])
        // Cheat Day Sun 22 08:00 to Mon 23 08:00, then the rest of Wake Up and the schedule.
        replace(["2026-03-22 09:00 standard", "2026-03-22 22:00 wind-down", "2026-03-23 02:00 sleep", "2026-03-23 06:00 wake-up"],
                with: ["2026-03-22 08:00 cheat-day", "2026-03-23 08:00 wake-up"])
        // Tue 24, 22:30 `stay-up`: Wind Down pauses for an hour.
        replace(["2026-03-25 02:00 sleep"], with: ["2026-03-24 22:30 standard", "2026-03-24 23:30 wind-down", "2026-03-25 02:00 sleep"])
        // Wed 25, 23:15 `bedtime`: Sleep now instead of at 02:00.
        replace(["2026-03-26 02:00 sleep"], with: ["2026-03-25 23:15 sleep"])
        // Thu 26, 07:10 `start-day`: Wake Up ends.
        replace(["2026-03-26 09:00 productivity"], with: ["2026-03-26 07:10 standard", "2026-03-26 09:00 productivity"])
        // Sat 28: a one-off Productivity entry 10:00-11:30.
        replace(["2026-03-28 18:00 social"], with: ["2026-03-28 10:00 productivity", "2026-03-28 11:30 standard", "2026-03-28 18:00 social"])
        // Sun 29, clocks spring forward from 02:00 to 03:00: Sleep comes 4 elapsed hours after 22:00 CET,
        // which the clock shows as 03:00 CEST.
        replace(["2026-03-29 02:00 sleep"], with: ["2026-03-29 03:00 sleep"])
        return lines
    }

    func testManualSwitchLastsUntilTheNextScheduledBoundaryAndSaysSo() {
        var inputs = ModeInputs()
        inputs.schedule = [ScheduleEntry(mode: .productivity, start: WallTime(hour: 9, minute: 0), duration: 3 * 3600,
                                         repetition: .weekly(Set(Weekday.allCases)))]
        let since = zone.at("2026-03-17 07:30")
        inputs.manual = ManualSwitch(mode: .social, since: since)
        let resolver = ModeResolver(inputs: inputs, zone: zone)
        let decision = resolver.resolve(at: zone.at("2026-03-17 08:00"))
        XCTAssertEqual(decision.mode, .social)
        // Wake Up (06:00-09:00) hands over to the scheduled Productivity at 09:00: that boundary ends the switch.
        XCTAssertEqual(decision.reason, .manual(inputs.manual!, endsAt: zone.at("2026-03-17 09:00")))
        XCTAssertEqual(decision.since, since)
        XCTAssertEqual(decision.next?.at, zone.at("2026-03-17 09:00"))
        XCTAssertEqual(decision.next?.mode, .productivity)
        XCTAssertEqual(decision.reason.explanation(zone: zone), "you switched at 2026-03-17 07:30 until 2026-03-17 09:00")
        // `mode auto` clears the switch.
        inputs.manual = nil
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: zone.at("2026-03-17 08:00")).mode, .wakeUp)
        // An explicit end comes first when sooner.
        inputs.manual = ManualSwitch(mode: .social, since: since, until: zone.at("2026-03-17 08:15"))
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: zone.at("2026-03-17 08:00")).next,
                       ModeChange(at: zone.at("2026-03-17 08:15"), mode: .wakeUp, reason: .automatic(.aroundWakeTime(WallTime(hour: 7, minute: 0)))))
    }

    func testPrecedence() throws {
        var inputs = ModeInputs()
        let now = zone.at("2026-03-18 10:00")
        inputs.schedule = [ScheduleEntry(mode: .productivity, start: WallTime(hour: 9, minute: 0), duration: 3 * 3600,
                                         repetition: .weekly([.wednesday]))]
        inputs.calendar = [CalendarInterval(mode: .social, start: zone.at("2026-03-18 09:30"), end: zone.at("2026-03-18 10:30"),
                                            summary: "Social: coffee", source: "home.ics")]
        // Overlapping scheduled entries: the one that started last wins.
        var decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
        XCTAssertEqual(decision.mode, .social)
        XCTAssertEqual(decision.reason, .calendar(summary: "Social: coffee", source: "home.ics"))
        XCTAssertEqual(decision.next?.at, zone.at("2026-03-18 10:30"))
        XCTAssertEqual(decision.next?.reason, .scheduled(inputs.schedule[0]))
        // A manual switch beats the schedule.
        inputs.manual = ManualSwitch(mode: .windDown, since: zone.at("2026-03-18 09:45"))
        decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
        XCTAssertEqual(decision.mode, .windDown)
        // Cheat Day beats everything.
        try inputs.cheatDays.book(start: zone.at("2026-03-18 08:00"), now: zone.at("2026-03-17 08:00"), zone: zone, id: "c")
        decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
        XCTAssertEqual(decision.mode, .cheatDay)
        XCTAssertEqual(decision.next?.at, zone.at("2026-03-19 08:00"))
        // A disabled mode never starts: without Cheat Day and Social, the manual switch shows again, then
        // Productivity takes over at the calendar event's end (the next boundary).
        inputs.enabledModes = Set(Mode.allCases).subtracting([.cheatDay, .social])
        decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
        XCTAssertEqual(decision.mode, .windDown)
        XCTAssertEqual(decision.next?.at, zone.at("2026-03-18 12:00"))
        XCTAssertEqual(decision.next?.mode, .standard)
    }

    func testTimelineListsEveryChangeOfADay() {
        let resolver = ModeResolver(inputs: ModeInputs(), zone: zone)
        let day = resolver.timeline(from: zone.at("2026-03-29 00:00"), to: zone.at("2026-03-30 00:00"))
        XCTAssertEqual(day.map { "\(zone.localDateTime(of: $0.start).time) \($0.mode.rawValue)" },
                       ["00:00 wind-down", "03:00 sleep", "06:00 wake-up", "09:00 standard", "22:00 wind-down"])
        XCTAssertEqual(day.last?.end, zone.at("2026-03-30 00:00"))
    }

    func testProductivityBreaksFollowTheStretchOfProductivity() {
        var inputs = ModeInputs()
        inputs.schedule = [ScheduleEntry(mode: .productivity, start: WallTime(hour: 9, minute: 0), duration: 3 * 3600,
                                         repetition: .weekly(Set(Weekday.allCases)))]
        let resolver = ModeResolver(inputs: inputs, zone: zone)
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-18 09:30")).productivityBreak, .working(nextBreak: zone.at("2026-03-18 10:00")))
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-18 10:02")).productivityBreak,
                       .onBreak(since: zone.at("2026-03-18 10:00"), until: zone.at("2026-03-18 10:05")))
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-18 10:05")).productivityBreak, .working(nextBreak: zone.at("2026-03-18 11:05")))
        XCTAssertNil(resolver.resolve(at: zone.at("2026-03-18 12:05")).productivityBreak)
        // `screentime break` at 10:40: a break now, and the next hour counts from its end.
        inputs.requestedBreaks = [zone.at("2026-03-18 10:40")]
        let asked = ModeResolver(inputs: inputs, zone: zone)
        XCTAssertEqual(asked.resolve(at: zone.at("2026-03-18 10:41")).productivityBreak,
                       .onBreak(since: zone.at("2026-03-18 10:40"), until: zone.at("2026-03-18 10:45")))
        XCTAssertEqual(asked.resolve(at: zone.at("2026-03-18 10:50")).productivityBreak, .working(nextBreak: zone.at("2026-03-18 11:45")))
    }

    private func diff(_ seen: [String], _ expected: [String]) -> String {
        let missing = expected.filter { !seen.contains($0) }
        let extra = seen.filter { !expected.contains($0) }
        return "missing: \(missing)\nunexpected: \(extra)"
    }
}
