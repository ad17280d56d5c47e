import XCTest
import Foundation
import CalendarFeed
import ScreenTimeCore
import Harnesses

final class CalendarReaderTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "calendar-feed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    @discardableResult
    func write(_ name: String, _ body: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try body.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func calendar(_ events: String, timeZone: Bool = true) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//screentime tests//EN\n" + (timeZone ? berlin : "") + events + "END:VCALENDAR\n"
    }

    let berlin = CalendarClientFiles.berlin + "\n"

    /// A weekly Wednesday event in Europe/Berlin, 14:00-15:30, one week excepted (EXDATE), one moved
    /// (RECURRENCE-ID), through the spring daylight-saving change.
    let weekly = """
        BEGIN:VEVENT
        UID:writing@example
        DTSTAMP:20260301T000000Z
        DTSTART;TZID=Europe/Berlin:20260311T140000
        DTEND;TZID=Europe/Berlin:20260311T153000
        RRULE:FREQ=WEEKLY;BYDAY=WE
        EXDATE;TZID=Europe/Berlin:20260325T140000
        SUMMARY:Productivity: writing
        END:VEVENT
        BEGIN:VEVENT
        UID:writing@example
        DTSTAMP:20260301T000000Z
        RECURRENCE-ID;TZID=Europe/Berlin:20260401T140000
        DTSTART;TZID=Europe/Berlin:20260401T160000
        DTEND;TZID=Europe/Berlin:20260401T170000
        SUMMARY:Productivity: writing (moved)
        END:VEVENT
        BEGIN:VEVENT
        UID:dentist@example
        DTSTAMP:20260301T000000Z
        DTSTART:20260318T080000Z
        DTEND:20260318T090000Z
        SUMMARY:Dentist
        END:VEVENT

        """

    var march: Range<Date> { zone.at("2026-03-09 00:00")..<zone.at("2026-04-09 00:00") }

    func utc(_ text: String) -> Date { FixedOffsetZone(seconds: 0).at(text) }

    func testWeeklyRuleWithExceptionAndOverrideAcrossDaylightSaving() throws {
        let path = try write("work.ics", calendar(weekly))
        let result = CalendarReader(zone: zone).read(paths: [path], range: march)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.map { "\($0.start)…\($0.end) \($0.mode.rawValue) \($0.summary)" }, [
            "\(utc("2026-03-11 13:00"))…\(utc("2026-03-11 14:30")) productivity Productivity: writing",
            "\(utc("2026-03-18 13:00"))…\(utc("2026-03-18 14:30")) productivity Productivity: writing",
            // 25 March is excepted; 1 April (now CEST) moved to 16:00-17:00.
            "\(utc("2026-04-01 14:00"))…\(utc("2026-04-01 15:00")) productivity Productivity: writing (moved)",
            "\(utc("2026-04-08 12:00"))…\(utc("2026-04-08 13:30")) productivity Productivity: writing",
        ])
        XCTAssertEqual(Set(result.intervals.map(\.source)), [path])
    }

    func testCalendarIntervalsDriveTheResolver() throws {
        let path = try write("work.ics", calendar(weekly))
        var inputs = ModeInputs()
        inputs.calendar = CalendarReader(zone: zone).read(paths: [path], range: march).intervals
        let resolver = ModeResolver(inputs: inputs, zone: zone)
        let decision = resolver.resolve(at: zone.at("2026-04-08 14:10"))
        XCTAssertEqual(decision.mode, .productivity)
        XCTAssertEqual(decision.reason, .calendar(summary: "Productivity: writing", source: path))
        XCTAssertEqual(decision.since, zone.at("2026-04-08 14:00"))
        XCTAssertEqual(decision.next?.at, zone.at("2026-04-08 15:30"))
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-25 14:10")).mode, .standard)
    }

    func testCategoriesFloatingTimesAllDayEventsDurationsRdatesAndCancellations() throws {
        let path = try write("home.ics", calendar("""
            BEGIN:VEVENT
            UID:dinner@example
            DTSTART:20260320T190000
            DTEND:20260320T220000
            CATEGORIES:Personal,Social
            SUMMARY:Dinner with Ana
            END:VEVENT
            BEGIN:VEVENT
            UID:retreat@example
            DTSTART;VALUE=DATE:20260321
            DTEND;VALUE=DATE:20260323
            SUMMARY:Wind Down retreat
            END:VEVENT
            BEGIN:VEVENT
            UID:focus@example
            DTSTART:20260316T080000Z
            DURATION:PT2H
            RDATE:20260317T080000Z
            SUMMARY:productivity
            END:VEVENT
            BEGIN:VEVENT
            UID:cancelled@example
            DTSTART:20260319T080000Z
            DTEND:20260319T090000Z
            STATUS:CANCELLED
            SUMMARY:Social lunch
            END:VEVENT

            """, timeZone: false))
        let result = CalendarReader(zone: zone).read(paths: [path], range: march)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.map { "\($0.mode.rawValue) \($0.start)…\($0.end)" }, [
            "productivity \(utc("2026-03-16 08:00"))…\(utc("2026-03-16 10:00"))",
            "productivity \(utc("2026-03-17 08:00"))…\(utc("2026-03-17 10:00"))",
            // Floating: the user's local time.
            "social \(zone.at("2026-03-20 19:00"))…\(zone.at("2026-03-20 22:00"))",
            // All-day: local midnight to midnight.
            "wind-down \(zone.at("2026-03-21 00:00"))…\(zone.at("2026-03-23 00:00"))",
        ])
    }

    func testFoldersAreReadTwoLevelsDeepAndProblemsNameTheirFile() throws {
        try write("a.ics", calendar(weekly))
        try write("personal/b.ics", calendar("BEGIN:VEVENT\nUID:b\nDTSTART:20260316T180000Z\nDTEND:20260316T190000Z\nSUMMARY:Social\nEND:VEVENT\n", timeZone: false))
        try write("personal/deeper/deepest/c.ics", calendar("BEGIN:VEVENT\nUID:c\nDTSTART:20260316T180000Z\nDTEND:20260316T190000Z\nSUMMARY:Sleep\nEND:VEVENT\n", timeZone: false))
        try write("notes.txt", "Social: not a calendar")
        let broken = try write("broken.ics", "this is not a calendar\n")
        let cheat = try write("fun.ics", calendar("BEGIN:VEVENT\nUID:d\nDTSTART:20260322T080000Z\nDTEND:20260323T080000Z\nSUMMARY:Cheat Day\nEND:VEVENT\n", timeZone: false))

        let result = CalendarReader(zone: zone).read(paths: [folder, folder + "/missing.ics"], range: march)
        XCTAssertEqual(Set(result.intervals.map(\.source)), [folder + "/a.ics", folder + "/personal/b.ics"])
        XCTAssertEqual(result.intervals.filter { $0.mode == .social }.count, 1)
        let problems = result.problems.map(\.description)
        XCTAssertTrue(problems.contains(broken + ": no calendar found: there is no BEGIN:VCALENDAR"), "\(problems)")
        XCTAssertTrue(problems.contains(cheat + ": UID d: “Cheat Day” is left out: a Cheat Day is booked with `screentime cheat-day book`, at least 12 hours ahead"), "\(problems)")
        XCTAssertTrue(problems.contains(folder + "/missing.ics: no such file or folder"), "\(problems)")
    }

    func testDamagedLinesAreReportedWithTheirLine() throws {
        let path = try write("damaged.ics", calendar("BEGIN:VEVENT\nUID:e\nDTSTART:20260316T180000Z\nDTEND:20260316T190000Z\nSUMMARY:Social\nDTEND;BOGUS\nEND:VEVENT\n", timeZone: false))
        let result = CalendarReader(zone: zone).read(paths: [path], range: march)
        XCTAssertEqual(result.intervals.count, 1)
        XCTAssertEqual(result.problems.map(\.description),
                       [path + ":9: UID e: skipped: Can't parse as DATE-TIME value in DTEND property. Removing entire property: BOGUS"])
    }

    func testADamagedFileReportsItsFirstProblemsAndHowManyMore() throws {
        let damaged = (0..<5_000).map { _ in "DTEND;BOGUS\n" }.joined()
        let path = try write("damaged.ics", calendar("BEGIN:VEVENT\nUID:e\nDTSTART:20260316T180000Z\nDTEND:20260316T190000Z\nSUMMARY:Social\n"
                                                     + damaged + "END:VEVENT\n", timeZone: false))
        let reader = CalendarReader(zone: zone)
        let started = Date()
        let result = reader.read(paths: [path], range: march)
        print("5,000 damaged lines read in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        XCTAssertEqual(result.intervals.count, 1)
        XCTAssertEqual(result.problems.count, reader.problemLimit + 1)
        XCTAssertEqual(result.problems.first?.line, 9)
        XCTAssertEqual(result.problems.last?.description, path + ": 4980 more problems not shown")
    }

    func testBuiltInAndUnknownTimeZones() throws {
        let path = try write("odd.ics", calendar("""
            BEGIN:VEVENT
            UID:f
            DTSTART;TZID=Mars/Olympus:20260316T180000
            DTEND;TZID=Mars/Olympus:20260316T190000
            SUMMARY:Social
            END:VEVENT
            BEGIN:VEVENT
            UID:g
            DTSTART;TZID=America/New_York:20260317T180000
            DTEND;TZID=America/New_York:20260317T190000
            SUMMARY:Social call
            END:VEVENT

            """, timeZone: false))
        let result = CalendarReader(zone: zone).read(paths: [path], range: march)
        // New York is on summer time from 8 March 2026 (UTC-4), without a VTIMEZONE in the file.
        XCTAssertEqual(result.intervals.map(\.start), [zone.at("2026-03-16 18:00"), utc("2026-03-17 22:00")])
        XCTAssertEqual(result.problems.map(\.message), ["unknown time zone “Mars/Olympus” in “Social”, read as local time"])
    }

    /// Zones are shared between files by their whole VTIMEZONE, not their TZID: Outlook names every
    /// zone it defines itself "Customized Time Zone".
    func testFilesDefiningOneCustomTZIDDifferentlyKeepTheirOwnDefinitions() throws {
        func file(_ name: String, offset: String) throws {
            try write(name + ".ics", calendar("""
                BEGIN:VTIMEZONE
                TZID:Customized Time Zone
                BEGIN:STANDARD
                DTSTART:16010101T000000
                TZOFFSETFROM:\(offset)
                TZOFFSETTO:\(offset)
                END:STANDARD
                END:VTIMEZONE
                BEGIN:VEVENT
                UID:\(name)
                DTSTART;TZID=Customized Time Zone:20260316T100000
                DTEND;TZID=Customized Time Zone:20260316T110000
                SUMMARY:Productivity: \(name)
                END:VEVENT

                """, timeZone: false))
        }
        try file("kolkata", offset: "+0530")
        try file("sao-paulo", offset: "-0300")
        try file("kolkata-again", offset: "+0530")
        let result = CalendarReader(zone: zone).read(paths: [folder], range: march)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: result.intervals.map { ($0.summary, $0.start) }), [
            "Productivity: kolkata": utc("2026-03-16 04:30"),
            "Productivity: sao-paulo": utc("2026-03-16 13:00"),
            "Productivity: kolkata-again": utc("2026-03-16 04:30"),
        ])
    }

    /// libical's own prefixed TZIDs are no IANA names: their VTIMEZONE is read as written (as the
    /// reference reads it), and without one they are libical's built-in zone.
    func testPrefixedTZIDsKeepTheirVTimeZoneAndAreBuiltInWithoutOne() throws {
        let path = try write("prefixed.ics", calendar("""
            BEGIN:VTIMEZONE
            TZID:/freeassociation.sourceforge.net/America/Sao_Paulo
            BEGIN:STANDARD
            DTSTART:16010101T000000
            TZOFFSETFROM:-0200
            TZOFFSETTO:-0200
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:written
            DTSTART;TZID=/freeassociation.sourceforge.net/America/Sao_Paulo:20260316T100000
            DTEND;TZID=/freeassociation.sourceforge.net/America/Sao_Paulo:20260316T110000
            SUMMARY:Productivity: as written
            END:VEVENT
            BEGIN:VEVENT
            UID:built-in
            DTSTART;TZID=/freeassociation.sourceforge.net/Asia/Kolkata:20260317T100000
            DTEND;TZID=/freeassociation.sourceforge.net/Asia/Kolkata:20260317T110000
            SUMMARY:Productivity: built in
            END:VEVENT

            """, timeZone: false))
        let result = CalendarReader(zone: zone).read(paths: [path], range: march)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.map(\.start), [utc("2026-03-16 12:00"), utc("2026-03-17 04:30")])
    }

    func testOccurrencesAreBoundedPerFileAndInAllNamingTheFile() throws {
        let minutely = { (name: String) in
            self.calendar("BEGIN:VEVENT\nUID:\(name)\nDTSTAMP:20260301T000000Z\nDTSTART:20260310T000000Z\nDTEND:20260310T000030Z\n"
                          + "RRULE:FREQ=MINUTELY;COUNT=3000\nSUMMARY:Productivity: \(name)\nEND:VEVENT\n", timeZone: false)
        }
        let big = try write("big.ics", minutely("big"))
        var reader = CalendarReader(zone: zone)
        let one = reader.read(paths: [big], range: march)
        XCTAssertEqual(one.intervals.count, reader.perFileLimit)
        XCTAssertEqual(one.intervals.first?.start, utc("2026-03-10 00:00"), "the earliest are kept")
        let later = reader.read(paths: [big], range: march, now: utc("2026-03-11 00:00"))
        XCTAssertEqual(later.intervals.first?.start, utc("2026-03-11 00:00"), "those from now on are kept")
        XCTAssertEqual(later.intervals.count, reader.perFileLimit)
        XCTAssertEqual(one.problems.map(\.description), ["\(big): 3000 mode events in the weeks read, more than 250; only 250 are used, from now on"])

        let other = try write("other.ics", minutely("other"))
        reader.totalLimit = 400
        let both = reader.read(paths: [big, other], range: march)
        XCTAssertEqual(both.intervals.count, 400)
        XCTAssertEqual(both.problems.count, 4, "each file over its limit, and both cut by the total: \(both.problems)")
        XCTAssertTrue(both.problems.contains { $0.path == other && $0.message.contains("more than 400") })
    }
}
