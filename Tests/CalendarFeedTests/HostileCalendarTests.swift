import XCTest
import Foundation
import CalendarFeed
import ScreenTimeCore
import Harnesses

/// The calendars of issue 19 that trapped or ran for minutes, each written by the test: none traps,
/// each read ends within its bound (the reading thread's CPU time, so that a loaded machine does not
/// fail it), what was cut is named with its file and UID, and a valid event beside it still counts.
final class HostileCalendarTests: XCTestCase {
    /// 2026-11-30 12:00 UTC, and the window the agent expands around it (back as far as the
    /// resolver looks, ahead `CalendarRefresher.defaultLookAhead`, 32 days).
    static let now = Date(timeIntervalSince1970: 1_796_040_000)
    static let window = now.addingTimeInterval(-ModeResolver.lookBack)..<now.addingTimeInterval(32 * 86_400)
    /// The CPU time any hostile file may cost a debug build (it cost minutes before).
    static let bound = 2.5

    var fixture: CalendarFileFixture!
    let reader = CalendarReader(zone: FixedOffsetZone(seconds: 0))

    override func setUpWithError() throws {
        fixture = try CalendarFileFixture()
        try write("work.ics", CalendarFileFixture.event("work@example", at: "20261201T090000"))
    }

    override func tearDown() { fixture = nil }

    @discardableResult
    func write(_ name: String, _ body: [String]) throws -> String {
        try fixture.write(name, lines: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"] + body + ["END:VCALENDAR"])
    }

    static func event(_ uid: String, _ lines: String..., summary: String = "Social") -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z"] + lines + ["SUMMARY:\(summary)", "END:VEVENT"]
    }

    /// Reads the fixture's folder, checks the bound and that the valid event in work.ics counts.
    func readAll(_ name: String = #function) -> CalendarReadResult {
        let (result, cpu, wall) = Self.timed { reader.read(paths: [fixture.folder], range: Self.window, now: Self.now) }
        print("\(name): \(String(format: "%.2f", cpu)) s CPU, \(String(format: "%.2f", wall)) s")
        XCTAssertLessThan(cpu, Self.bound, name)
        XCTAssertTrue(result.intervals.contains { $0.summary == "Productivity" && $0.start == FixedOffsetZone(seconds: 0).at("2026-12-01 09:00") },
                      "the valid event beside it still counts: \(result.intervals.prefix(3))")
        return result
    }

    static func timed<T>(_ work: () -> T) -> (T, cpu: Double, wall: Double) {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let (cpuStart, wallStart) = (cpu(), Date())
        let value = work()
        return (value, cpu() - cpuStart, Date().timeIntervalSince(wallStart))
    }

    func problems(_ result: CalendarReadResult, in name: String) -> [String] {
        result.problems.filter { $0.path.hasSuffix("/" + name) }.map(\.description)
    }

    func testAMistypedEndYearOrAStartInYear9999CostsOnlyItsOwnEvent() throws {
        let dentist = try write("dentist.ics", Self.event("dentist@example", "DTSTART:20261215T090000", "DTEND:21261215T100000", summary: "Dentist"))
        let far = try write("far.ics", Self.event("far@example", "DTSTART:99991215T090000", "DTEND:20261215T100000", summary: "Productivity"))
        try write("long.ics", Self.event("long@example", "DTSTART:20261201T090000Z", "DURATION:P99999999W", summary: "Sleep"))
        let result = readAll()
        XCTAssertEqual(result.intervals.map(\.summary), ["Productivity"])
        XCTAssertEqual(problems(result, in: "dentist.ics"), [dentist + ": UID dentist@example: “Dentist”: lasts more than 10 years (DTSTART 2026-12-15 09:00, DTEND 2126-12-15 10:00): a mistyped year? The event is left out"])
        XCTAssertEqual(problems(result, in: "far.ics"), [far + ": UID far@example: “Productivity”: lasts more than 10 years (DTSTART 9999-12-15 09:00, DTEND 2026-12-15 10:00): a mistyped year? The event is left out"])
        XCTAssertEqual(problems(result, in: "long.ics").count, 1)
        let agenda = AgendaReader(zone: FixedOffsetZone(seconds: 0)).read(paths: [fixture.folder], range: Self.window)
        XCTAssertEqual(agenda.events.map(\.title), ["Productivity"])
    }

    /// The occurrence cap counted from DTSTART: 100,000 hours from 2015 ran out before 2026, and
    /// the series gave no occurrence and no problem.
    func testAnHourlySeriesBegunIn2015StillGivesItsOccurrencesInTheWindow() throws {
        let path = try write("hourly.ics", Self.event("hourly@example", "DTSTART:20150101T090000Z", "DTEND:20150101T091500Z", "RRULE:FREQ=HOURLY",
                                                      summary: "Productivity: focus"))
        let result = readAll()
        let hourly = result.intervals.filter { $0.source == path }
        XCTAssertEqual(hourly.count, reader.perFileLimit)
        XCTAssertEqual(hourly.first?.start, Self.now, "those from now on are kept")
        XCTAssertEqual(problems(result, in: "hourly.ics"), [path + ": 816 mode events in the weeks read, more than 250; only 250 are used, from now on"])
    }

    func testAVTimeZoneChangingEveryMinuteOrSecondSince1601IsRefusedAndNamed() throws {
        for frequency in ["MINUTELY", "SECONDLY"] {
            let zone = ["BEGIN:VTIMEZONE", "TZID:Hostile", "BEGIN:STANDARD", "DTSTART:16010101T000000", "RRULE:FREQ=\(frequency)",
                        "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T000030",
                        "RRULE:FREQ=\(frequency)", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:DAYLIGHT", "END:VTIMEZONE"]
            let path = try write("zone-\(frequency).ics", zone + Self.event("in-zone-\(frequency)", "DTSTART;TZID=Hostile:20261202T090000",
                                                                           "DTEND;TZID=Hostile:20261202T100000"))
            let result = readAll()
            XCTAssertEqual(problems(result, in: "zone-\(frequency).ics"),
                           [path + ": the time zone “Hostile” is not read: its STANDARD rule recurs FREQ=\(frequency), not yearly; times in it are read as local time"])
            XCTAssertTrue(result.intervals.contains { $0.source == path && $0.start == FixedOffsetZone(seconds: 0).at("2026-12-02 09:00") })
        }
    }

    func testAYearlyVTimeZoneRuleRecurringDailyIsRefusedAndOneOfAThousandYearsIsRead() throws {
        let daily = ["BEGIN:VTIMEZONE", "TZID:Daily", "BEGIN:STANDARD", "DTSTART:16010101T000000", "RRULE:FREQ=YEARLY;BYYEARDAY=" + (1...366).map(String.init).joined(separator: ","),
                     "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:STANDARD", "END:VTIMEZONE"]
        let old = ["BEGIN:VTIMEZONE", "TZID:Since 1000", "BEGIN:STANDARD", "DTSTART:10001025T030000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                   "TZOFFSETFROM:+0300", "TZOFFSETTO:+0200", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:10000329T020000",
                   "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0300", "END:DAYLIGHT", "END:VTIMEZONE"]
        let path = try write("zones.ics", daily + old + Self.event("daily", "DTSTART;TZID=Daily:20261202T090000", "DTEND;TZID=Daily:20261202T100000")
                             + Self.event("old", "DTSTART;TZID=Since 1000:20261203T090000", "DTEND;TZID=Since 1000:20261203T100000"))
        let result = readAll()
        XCTAssertEqual(problems(result, in: "zones.ics"), [path + ": the time zone “Daily” is not read: its STANDARD rule recurs more than 4 times a year; times in it are read as local time"])
        // December: standard time, +02:00.
        XCTAssertTrue(result.intervals.contains { $0.source == path && $0.start == FixedOffsetZone(seconds: 0).at("2026-12-03 07:00") }, "\(result.intervals)")
    }

    func testTwoThousandSecondlySeriesAreCutAndNamed() throws {
        let series = (0..<2_000).flatMap { Self.event("s\($0)", "DTSTART:20261129T000000Z", "DTEND:20261129T000001Z", "RRULE:FREQ=SECONDLY") }
        let path = try write("secondly.ics", series + CalendarFileFixture.event("same-file@example", at: "20261202T090000", summary: "Sleep"))
        let result = readAll()
        XCTAssertTrue(result.intervals.contains { $0.summary == "Sleep" }, "a single event after them in the file still counts")
        let named = problems(result, in: "secondly.ics")
        XCTAssertEqual(named.first, path + ": 11999 mode events in the weeks read, more than 250; only 250 are used, from now on")
        XCTAssertTrue(named.contains(path + ": UID s0: “Social”: its RRULE recurs more than one event is read for (5000 occurrences or 20000 periods of its rule); occurrences after 2026-11-29 01:23 are left out"), "\(named.prefix(3))")
        XCTAssertTrue(named.contains { $0.contains("UID s2: “Social”: its RRULE recurs more than the file's events are read for") }, "\(named.prefix(6))")
        XCTAssertTrue(named.last?.hasSuffix("more problems not shown") ?? false, "\(named.suffix(2))")
    }

    func testHundredsOfSecondlySeriesWithACountOfAHundredThousandAreCutAndNamed() throws {
        let series = (0..<300).flatMap { Self.event("c\($0)", "DTSTART:20261129T000000Z", "DTEND:20261129T000001Z", "RRULE:FREQ=SECONDLY;COUNT=100000") }
        try write("counted.ics", series)
        let named = problems(readAll(), in: "counted.ics")
        XCTAssertTrue(named.contains { $0.contains("UID c0: “Social”: its RRULE recurs more than one event is read for") }, "\(named.prefix(3))")
    }

    /// A sparse rule makes libical walk every second of a year (or to 2582) for one occurrence.
    func testRulesThatMatchRarelyOrNeverAreBoundedByTheirPeriods() throws {
        let rules = ["FREQ=SECONDLY;BYMONTH=2", "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
                     "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MINUTELY;BYMONTH=2;COUNT=5"]
        let series = rules.enumerated().flatMap { Self.event("r\($0.offset)", "DTSTART:20150301T000000Z", "DTEND:20150301T000001Z", "RRULE:" + $0.element) }
        try write("sparse.ics", (0..<40).flatMap { copy in series.map { $0.hasPrefix("UID:") ? $0 + "-\(copy)" : $0 } })
        _ = readAll()
    }

    func testATwentyMegabyteLineIsCutAndNamed() throws {
        let description = "DESCRIPTION:" + String(repeating: "x", count: 20 << 20)
        let path = try write("long-line.ics", Self.event("long-line@example", "DTSTART:20261201T110000Z", "DTEND:20261201T120000Z", description))
        let result = readAll()
        XCTAssertEqual(problems(result, in: "long-line.ics"), [path + ":9: a line of 20971532 bytes, cut to its first 65536 (the rest of the file is read)"])
        XCTAssertTrue(result.intervals.contains { $0.source == path && $0.mode == .social })
    }

    func testThreeThousandTimeZonesAreBoundedAndThoseBeyondAHundredNamed() throws {
        var zones: [String] = [], events: [String] = []
        for index in 0..<3_000 {
            let offset = "+\(index % 12 < 10 ? "0" : "")\(index % 12)\((index * 7) % 60 < 10 ? "0" : "")\((index * 7) % 60)"
            zones += ["BEGIN:VTIMEZONE", "TZID:Zone \(index)", "BEGIN:STANDARD", "DTSTART:16010101T030000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                      "TZOFFSETFROM:+0000", "TZOFFSETTO:\(offset)", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000",
                      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:+0000", "END:DAYLIGHT", "END:VTIMEZONE"]
            events += Self.event("z\(index)", "DTSTART;TZID=Zone \(index):20261201T120000", "DTEND;TZID=Zone \(index):20261201T130000")
        }
        let path = try write("zones.ics", zones + events)
        let result = readAll()
        let named = problems(result, in: "zones.ics")
        XCTAssertTrue(named.contains(path + ": the time zone “Zone 100” is not read: the file defines more than 100 time zones its events use; this one is not read; times in it are read as local time"), "\(named.prefix(3))")
        // Zone 1 is +01:07 in winter (Dec): its 12:00 is 10:53 UTC.
        XCTAssertTrue(result.intervals.contains { $0.start == FixedOffsetZone(seconds: 0).at("2026-12-01 10:53") }, "\(result.intervals.prefix(3))")
    }

    /// `calendar list`, the user's view: every cut is named under its calendar, and nothing traps.
    func testCalendarListNamesWhatWasCut() throws {
        try write("dentist.ics", Self.event("dentist@example", "DTSTART:20261215T090000", "DTEND:21261215T100000", summary: "Dentist"))
        try write("secondly.ics", (0..<50).flatMap { Self.event("s\($0)", "DTSTART:20261129T000000Z", "DTEND:20261129T000001Z", "RRULE:FREQ=SECONDLY") })
        let home = NSTemporaryDirectory() + "hostile-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
                           "TZ": "UTC", "PATH": "/usr/bin:/bin", "SCREENTIME_NOW": "\(Int(Self.now.timeIntervalSince1970))"]
        let added = try AgentProcess.run(["calendar", "add", fixture.folder], environment: environment)
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertTrue(added.out.contains("lasts more than 10 years"), added.out)
        let listed = try AgentProcess.run(["calendar", "list"], environment: environment)
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("UID dentist@example: “Dentist”: lasts more than 10 years"), listed.out)
        XCTAssertTrue(listed.out.contains("UID s0: “Social”: its RRULE recurs more than one event is read for"), listed.out)
        let doctor = try AgentProcess.run(["doctor"], environment: environment)
        XCTAssertTrue(doctor.out.contains("lasts more than 10 years"), doctor.out)
    }
}
