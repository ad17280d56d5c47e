import XCTest
import CalendarFeed
import ScreenTimeCore

/// Events whose times do not fit together are named and read as Python's recurring-ical-events 3.8
/// reads them (its output for this file, in UTC, is in the expected spans below).
final class EventCheckTests: XCTestCase {
    /// One hour east of UTC, so that the user's midnight differs from the zones written in the file.
    let reader = CalendarReader(zone: FixedOffsetZone(seconds: 3600))
    let march = Date(timeIntervalSince1970: 1_772_323_200)..<Date(timeIntervalSince1970: 1_775_001_600)

    func utc(_ text: String) -> Date { FixedOffsetZone(seconds: 0).at(text) }

    func event(_ uid: String, _ lines: [String]) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "SUMMARY:Productivity \(uid)"] + lines + ["END:VEVENT"]
    }

    func testTimesThatDoNotFitAreNamedAndReadAsTheReferenceReadsThem() throws {
        let fixture = try CalendarFileFixture()
        let path = try fixture.write("odd.ics", lines: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
            + event("date-start", ["DTSTART;VALUE=DATE:20260310", "DTEND:20260312T090000Z"])
            + event("date-end", ["DTSTART:20260325T100000Z", "DTEND;VALUE=DATE:20260326"])
            + event("backwards", ["DTSTART:20260320T100000Z", "DTEND:20260320T090000Z"])
            + event("backwards-days", ["DTSTART;VALUE=DATE:20260322", "DTEND;VALUE=DATE:20260321"])
            + event("backwards-series", ["DTSTART:20260302T100000Z", "DTEND:20260302T090000Z", "RRULE:FREQ=WEEKLY;COUNT=2"])
            + event("negative", ["DTSTART:20260318T100000Z", "DURATION:-PT2H"])
            + event("no-start", ["DTSTART:not a time", "DTEND:20260318T090000Z"])
            + ["END:VCALENDAR"])
        let result = reader.read(paths: [path], range: march)
        XCTAssertEqual(result.intervals.map { "\($0.summary) \($0.start)…\($0.end)" }, [
            "Productivity backwards-series \(utc("2026-03-02 09:00"))…\(utc("2026-03-02 10:00"))",
            "Productivity backwards-series \(utc("2026-03-09 09:00"))…\(utc("2026-03-09 10:00"))",
            // Midnight in DTEND's zone (UTC), not the user's.
            "Productivity date-start \(utc("2026-03-10 00:00"))…\(utc("2026-03-12 09:00"))",
            "Productivity negative \(utc("2026-03-18 08:00"))…\(utc("2026-03-18 10:00"))",
            "Productivity backwards \(utc("2026-03-20 09:00"))…\(utc("2026-03-20 10:00"))",
            // Two dates: the user's days.
            "Productivity backwards-days \(utc("2026-03-20 23:00"))…\(utc("2026-03-21 23:00"))",
            // Midnight in DTSTART's zone (UTC).
            "Productivity date-end \(utc("2026-03-25 10:00"))…\(utc("2026-03-26 00:00"))",
        ])
        let problems = result.problems.map(\.description)
        XCTAssertEqual(problems.filter { !$0.contains("skipped:") }, [
            "\(path): UID date-start: “Productivity date-start”: DTSTART is a date (all day) but DTEND a date-time; read from midnight of 2026-03-10 (in DTEND's zone) to DTEND",
            "\(path): UID date-end: “Productivity date-end”: DTSTART is a date-time but DTEND a date; read as ending at midnight of 2026-03-26 (in DTSTART's zone)",
            "\(path): UID backwards: “Productivity backwards”: DTEND is before DTSTART; read the other way round, from DTEND to DTSTART",
            "\(path): UID backwards-days: “Productivity backwards-days”: DTEND is before DTSTART; read the other way round, from DTEND to DTSTART",
            "\(path): UID backwards-series: “Productivity backwards-series”: DTEND is before DTSTART; read the other way round, from DTEND to DTSTART",
            "\(path): UID negative: “Productivity negative”: DURATION is negative; read as ending at DTSTART",
            "\(path): UID no-start: “Productivity no-start”: no DTSTART that can be read; the event is left out",
        ])
        // libical's own word on the DTSTART it removed, with its line and UID.
        XCTAssertTrue(problems.contains("\(path):44: UID no-start: skipped: Can't parse as DATE-TIME value in DTSTART property. Removing entire property: not a time"), "\(problems)")
    }

    func testAModeEventThatLastsNoTimeAndAnOverrideWithoutUIDAreNamed() throws {
        let fixture = try CalendarFileFixture()
        let path = try fixture.write("quiet.ics", lines: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
            + event("instant", ["DTSTART:20260310T080000Z"])
            + event("same", ["DTSTART:20260310T080000Z", "DTEND:20260310T080000Z"])
            + ["BEGIN:VEVENT", "SUMMARY:Sleep in", "RECURRENCE-ID:20260311T080000Z", "DTSTART:20260311T090000Z", "DTEND:20260311T100000Z", "END:VEVENT"]
            + ["BEGIN:VEVENT", "UID:reminder", "SUMMARY:Call the bank", "DTSTART:20260312T080000Z", "END:VEVENT"]
            + ["END:VCALENDAR"])
        let result = reader.read(paths: [path], range: march)
        XCTAssertEqual(result.intervals, [])
        XCTAssertEqual(result.problems.map(\.description), [
            "\(path): UID instant: “Productivity instant”: names a mode but lasts no time (its end is its start, or it has no DTEND or DURATION); it sets no mode",
            "\(path): UID same: “Productivity same”: names a mode but lasts no time (its end is its start, or it has no DTEND or DURATION); it sets no mode",
            "\(path): “Sleep in”: a RECURRENCE-ID without a UID replaces no occurrence; the event is left out",
        ])
    }
}
