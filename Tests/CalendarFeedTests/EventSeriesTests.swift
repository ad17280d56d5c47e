import XCTest
import Foundation
import CalendarFeed
import ScreenTimeCore
import Harnesses

/// A machine's time zone from tzdata, as the CLI reads it from TZ.
private struct TZDataZone: LocalTimeZone {
    let zone: TimeZone
    init(_ name: String) throws {
        zone = try XCTUnwrap(TimeZone(identifier: name), "tzdata has no zone \(name)")
    }
    func utcOffset(at instant: Date) -> Int { zone.secondsFromGMT(for: instant) }
}

/// Occurrences of the fixture exports (Fixtures/README.md) as calendar apps show them, compared one
/// by one with an independent implementation of RFC 5545: Python's icalendar with
/// recurring-ical-events, which `scripts/install-deps.sh --test` installs in a venv.
final class EventSeriesTests: XCTestCase {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = here.appendingPathComponent("Fixtures").path
    static let referenceScript = here.appendingPathComponent("Reference/occurrences.py").path
    static let python = "/opt/screentime-test/venv/bin/python"
    /// Both sides of UTC, and zones whose daylight-saving changes fall on other dates than the files'.
    static let machineZones = ["America/Los_Angeles", "Europe/Berlin", "Asia/Tokyo", "Pacific/Auckland"]
    let year = Date(timeIntervalSince1970: 1_767_225_600)..<Date(timeIntervalSince1970: 1_798_761_600) // 2026 in UTC

    func fixture(_ name: String) -> String { Self.fixtures + "/" + name }

    /// "START END SUMMARY" lines, START and END in ISO 8601 UTC, sorted.
    func lines(_ occurrences: [(start: Int, end: Int, summary: String)]) -> [String] {
        let format = ISO8601DateFormatter()
        return occurrences.sorted { ($0.start, $0.end, $0.summary) < ($1.start, $1.end, $1.summary) }.map {
            format.string(from: Date(timeIntervalSince1970: TimeInterval($0.start))) + " "
                + format.string(from: Date(timeIntervalSince1970: TimeInterval($0.end))) + " " + $0.summary
        }
    }

    func ours(_ file: String, zone: String) throws -> [String] {
        var reader = CalendarReader(zone: try TZDataZone(zone))
        reader.perFileLimit = 10_000
        let result = try reader.readFile(file, range: year)
        // libical warns of the empty DESCRIPTION and LOCATION that Google and Exchange write; no zone is unknown.
        XCTAssertEqual(result.problems.filter { $0.message.contains("time zone") }, [], "\(file) in \(zone)")
        return lines(result.intervals.map { (Int($0.start.timeIntervalSince1970), Int($0.end.timeIntervalSince1970), $0.summary) })
    }

    func reference(_ file: String, zone: String) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw ReferenceFailure(message: "no reference venv at \(Self.python): run scripts/install-deps.sh --test")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.referenceScript, file, "\(Int(year.lowerBound.timeIntervalSince1970))",
                             "\(Int(year.upperBound.timeIntervalSince1970))", zone]
        let run = try process.finishedOutput()
        guard run.status == 0 else { throw ReferenceFailure(message: "the reference failed on \(file): \(run.err)") }
        return lines(run.out.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 2)
            return (Int(parts[0])!, Int(parts[1])!, parts.count > 2 ? String(parts[2]) : "")
        })
    }

    struct ReferenceFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    func testEveryFixtureMatchesTheReferenceInEveryMachineZone() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { $0.hasSuffix(".ics") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 6)
        for name in files {
            for zone in Self.machineZones {
                let expected = try reference(fixture(name), zone: zone)
                XCTAssertFalse(expected.isEmpty, "\(name): the reference found no occurrence")
                let found = try ours(fixture(name), zone: zone)
                XCTAssertEqual(found, expected, "\(name) in \(zone)")
                if found != expected {
                    print("\(name) in \(zone):\n  ours only: \(found.filter { !expected.contains($0) })\n  reference only: \(expected.filter { !found.contains($0) })")
                }
            }
        }
    }

    func testThisAndFutureMovesEveryLaterOccurrence() throws {
        let choir = try ours(fixture("nextcloud-this-and-future.ics"), zone: "Europe/Berlin").filter { $0.contains("choir") }
        XCTAssertEqual(choir.filter { $0 >= "2026-03-24" }, [
            "2026-03-24T01:00:00Z 2026-03-24T02:30:00Z Social: choir rehearsal",
            // From 30 March on: 19:00-21:15 Los Angeles time, under the new name.
            "2026-03-31T02:00:00Z 2026-03-31T04:15:00Z Social: choir rehearsal (new hall)",
            "2026-04-07T02:00:00Z 2026-04-07T04:15:00Z Social: choir rehearsal (new hall)",
            "2026-04-14T00:00:00Z 2026-04-14T02:00:00Z Social: choir concert",
            "2026-04-21T02:00:00Z 2026-04-21T04:15:00Z Social: choir rehearsal (new hall)",
            "2026-04-28T02:00:00Z 2026-04-28T04:15:00Z Social: choir rehearsal (new hall)",
            "2026-05-05T02:00:00Z 2026-05-05T04:15:00Z Social: choir rehearsal (new hall)",
            "2026-05-12T02:00:00Z 2026-05-12T04:15:00Z Social: choir rehearsal (new hall)",
        ])
    }

    func testPeriodRDatesEndAtThePeriodsEnd() throws {
        let extra = try ours(fixture("apple-rdate-periods.ics"), zone: "Asia/Tokyo").filter { $0.contains("volleyball") && !$0.contains("T17:30") }
        XCTAssertEqual(extra, [
            "2026-03-14T09:00:00Z 2026-03-14T12:00:00Z Social: volleyball",
            "2026-03-28T09:00:00Z 2026-03-28T14:00:00Z Social: volleyball",
        ])
    }

    func testAnExchangeAllDayOverrideReplacesItsDateInEveryZone() throws {
        for zone in Self.machineZones {
            let windDown = try ours(fixture("outlook-windows-zones.ics"), zone: zone).filter { $0.contains("Wind Down") }
            XCTAssertEqual(windDown.count, 13, "\(zone): \(windDown)")
            XCTAssertEqual(windDown.filter { $0.hasSuffix("(on Saturday this week)") }.count, 1, zone)
        }
    }

    func testWindowsZoneNamesWithoutAVTimeZoneAreTheirIANAZone() throws {
        let calls = try ours(fixture("outlook-windows-zones.ics"), zone: "Europe/Berlin").filter { $0.contains("Sam") }
        XCTAssertEqual(calls.prefix(2), [
            "2026-03-02T17:00:00Z 2026-03-02T18:00:00Z Social: call with Sam", // 09:00 PST
            "2026-03-09T16:00:00Z 2026-03-09T17:00:00Z Social: call with Sam", // 09:00 PDT
        ])
    }

    func testTheNewestVersionOfEachEventAndModificationWins() throws {
        let found = try ours(fixture("google-exported-twice.ics"), zone: "Pacific/Auckland")
        XCTAssertEqual(found.filter { $0.contains("team drinks") }.count, 1)
        XCTAssertEqual(found.filter { $0.contains("sprint review") }, [
            "2026-03-03T09:00:00Z 2026-03-03T10:30:00Z Productivity: sprint review",
            "2026-03-05T09:00:00Z 2026-03-05T10:30:00Z Productivity: sprint review",
            // 10 March: the old export's modification is stale, the new one excludes the date.
            "2026-03-12T09:00:00Z 2026-03-12T10:30:00Z Productivity: sprint review",
            "2026-03-17T15:00:00Z 2026-03-17T16:30:00Z Productivity: sprint review (late)",
            "2026-03-19T09:00:00Z 2026-03-19T10:30:00Z Productivity: sprint review",
            "2026-03-24T09:00:00Z 2026-03-24T10:30:00Z Productivity: sprint review",
            "2026-03-26T09:00:00Z 2026-03-26T10:30:00Z Productivity: sprint review",
        ])
    }

    func testAnIANAZoneIsReadWithItsCurrentRulesWhateverTheFilesVTimeZoneSays() throws {
        let found = try ours(fixture("apple-stale-zone.ics"), zone: "Europe/Berlin")
        // The file's America/Sao_Paulo still has Brazil's summer time (abolished in 2019): 19:00 is
        // read at -03:00 as tzdata has it, not at the file's -02:00.
        XCTAssertEqual(found.filter { $0.contains("Portuguese") }.prefix(2), [
            "2026-01-05T22:00:00Z 2026-01-05T23:30:00Z Productivity: Portuguese class",
            "2026-01-12T22:00:00Z 2026-01-12T23:30:00Z Productivity: Portuguese class",
        ])
        // A TZID that names no IANA zone keeps its VTIMEZONE, stale rules and all (10:00 at -02:00).
        XCTAssertEqual(found.filter { $0.contains("Campinas") }, [
            "2026-01-12T12:00:00Z 2026-01-12T13:00:00Z Productivity: call with the Campinas office",
        ])
    }

    func testANightKeepsItsWallClockEndThroughADaylightSavingChange() throws {
        let nights = try ours(fixture("google-calendar.ics"), zone: "America/Los_Angeles").filter { $0.hasSuffix("Sleep") }
        // 23:00-07:00 in Berlin: eight hours, seven on the night the clocks go forward.
        XCTAssertTrue(nights.contains("2026-03-27T22:00:00Z 2026-03-28T06:00:00Z Sleep"), "\(nights)")
        XCTAssertTrue(nights.contains("2026-03-28T22:00:00Z 2026-03-29T05:00:00Z Sleep"), "\(nights)")
        XCTAssertTrue(nights.contains("2026-03-29T21:00:00Z 2026-03-30T05:00:00Z Sleep"), "\(nights)")
    }

    /// The agent's way: `screentime calendar expand` in a machine whose zone is TZ (all-day and
    /// floating times placed by tzdata through the C library), against the reference.
    func testTheCLIExpansionMatchesTheReferenceInTheMachineZoneOfTZ() throws {
        let home = NSTemporaryDirectory() + "event-series-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        for name in ["outlook-windows-zones.ics", "thunderbird-floating.ics"] {
            for zone in ["Asia/Tokyo", "America/Los_Angeles"] {
                let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                                   "XDG_STATE_HOME": home + "/state", "TZ": zone, "PATH": "/usr/bin:/bin"]
                try? FileManager.default.removeItem(atPath: home)
                let added = try AgentProcess.run(["calendar", "add", fixture(name)], environment: environment)
                XCTAssertEqual(added.status, 0, added.err)
                let expanded = try AgentProcess.run(["calendar", "expand", "--from", "\(Int(year.lowerBound.timeIntervalSince1970))",
                                                     "--to", "\(Int(year.upperBound.timeIntervalSince1970))"], environment: environment)
                XCTAssertEqual(expanded.status, 0, expanded.err)
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(expanded.out.utf8)) as? [String: Any])
                let intervals = try XCTUnwrap(json["intervals"] as? [[String: Any]])
                let found = lines(intervals.map { ($0["start"] as? Int ?? 0, $0["end"] as? Int ?? 0, $0["summary"] as? String ?? "") })
                XCTAssertEqual(found, try reference(fixture(name), zone: zone), "\(name) with TZ=\(zone)")
            }
        }
    }

    /// Versions the reference does not tell apart: it keeps the first of equal SEQUENCEs, and an old
    /// modification that names no occurrence of the rescheduled series unless it repeats the RRULE.
    func testSameSequenceNewerStampWinsAndAnOrphanedOldModificationIsDropped() throws {
        let folder = NSTemporaryDirectory() + "event-series-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/versions.ics"
        try """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//screentime tests//EN
            BEGIN:VEVENT
            UID:review@example
            DTSTAMP:20260305T000000Z
            SEQUENCE:2
            DTSTART:20260304T090000Z
            DTEND:20260304T100000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            SUMMARY:Productivity: review (rescheduled to Wednesdays)
            END:VEVENT
            BEGIN:VEVENT
            UID:review@example
            DTSTAMP:20260301T000000Z
            SEQUENCE:2
            DTSTART:20260303T090000Z
            DTEND:20260303T100000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            SUMMARY:Productivity: review (Tuesdays, an older stamp)
            END:VEVENT
            BEGIN:VEVENT
            UID:review@example
            DTSTAMP:20260301T000000Z
            SEQUENCE:1
            RECURRENCE-ID:20260310T090000Z
            DTSTART:20260310T140000Z
            DTEND:20260310T150000Z
            SUMMARY:Productivity: review (old Tuesday moved)
            END:VEVENT
            BEGIN:VEVENT
            UID:review@example
            DTSTAMP:20260305T000000Z
            SEQUENCE:2
            RECURRENCE-ID:20260311T090000Z
            DTSTART:20260311T140000Z
            DTEND:20260311T150000Z
            SUMMARY:Productivity: review (moved)
            END:VEVENT
            END:VCALENDAR

            """.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ours(path, zone: "Europe/Berlin"), [
            "2026-03-04T09:00:00Z 2026-03-04T10:00:00Z Productivity: review (rescheduled to Wednesdays)",
            "2026-03-11T14:00:00Z 2026-03-11T15:00:00Z Productivity: review (moved)",
        ])
    }
}
