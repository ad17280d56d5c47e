import XCTest
import CalendarFeed
import ScreenTimeCore

/// Files whose BEGIN and END lines do not pair up, read by libical after the repair: every event
/// that can be read is, and each repair is named with its line and the event's UID.
final class ComponentNestingTests: XCTestCase {
    let reader = CalendarReader(zone: FixedOffsetZone(seconds: 0))
    let march = Date(timeIntervalSince1970: 1_772_323_200)..<Date(timeIntervalSince1970: 1_775_001_600)
    let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
    let first = CalendarFileFixture.event("first@example", at: "20260310T080000")
    let second = CalendarFileFixture.event("second@example", at: "20260311T080000")

    func read(_ lines: [String]) throws -> (path: String, starts: [Date], problems: [String]) {
        let fixture = try CalendarFileFixture()
        let path = try fixture.write("unbalanced.ics", lines: lines)
        let result = reader.read(paths: [path], range: march)
        return (path, result.intervals.map(\.start), result.problems.map(\.description))
    }

    var bothStarts: [Date] { [Date(timeIntervalSince1970: 1_773_129_600), Date(timeIntervalSince1970: 1_773_216_000)] }

    func testAMissingEndVEventIsNamedAndBothEventsAreRead() throws {
        // Line 4 opens the first event; its END:VEVENT (line 9) is missing.
        let read = try read(header + first.dropLast() + second + ["END:VCALENDAR"])
        XCTAssertEqual(read.starts, bothStarts)
        XCTAssertEqual(read.problems, [read.path + ":4: UID first@example: BEGIN:VEVENT has no END:VEVENT before BEGIN:VEVENT on line 9; read as ended there"])
    }

    func testAStrayEndIsNamedAndTheEventsAfterItAreRead() throws {
        let read = try read(header + first + ["END:VEVENT"] + second + ["END:VCALENDAR"])
        XCTAssertEqual(read.starts, bothStarts)
        XCTAssertEqual(read.problems, [read.path + ":10: END:VEVENT ends no BEGIN:VEVENT; BEGIN:VCALENDAR on line 1 is still open; the line is left out"])
    }

    func testAnEndOfTheWrongComponentIsNamedAndTheEventKept() throws {
        let read = try read(header + first.dropLast() + ["END:VTODO"] + second + ["END:VCALENDAR"])
        XCTAssertEqual(read.starts, bothStarts)
        XCTAssertEqual(read.problems, [
            read.path + ":9: UID first@example: END:VTODO ends no BEGIN:VTODO; BEGIN:VEVENT on line 4 is still open; the line is left out",
            read.path + ":4: UID first@example: BEGIN:VEVENT has no END:VEVENT before BEGIN:VEVENT on line 10; read as ended there",
        ])
    }

    func testACalendarEndedTooEarlyOrNeverKeepsItsEvents() throws {
        let early = try read(header + first + ["END:VCALENDAR"] + second + ["END:VCALENDAR"])
        XCTAssertEqual(early.starts, bothStarts)
        XCTAssertEqual(early.problems, [
            early.path + ":11: BEGIN:VEVENT comes after END:VCALENDAR on line 10, outside the calendar; read all the same",
            early.path + ":17: END:VCALENDAR ends no BEGIN:VCALENDAR; the line is left out",
        ])
        let never = try read(header + first + second)
        XCTAssertEqual(never.starts, bothStarts)
        XCTAssertEqual(never.problems, [never.path + ":1: BEGIN:VCALENDAR has no END:VCALENDAR before the end of the file; read as ended there"])
    }

    func testAnAlarmInsideAnEventAndTimeZonePartsAreSound() throws {
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM"]
        let zone = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100",
                    "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"]
        let read = try read(header + zone + first.dropLast() + alarm + ["END:VEVENT"] + second + ["END:VCALENDAR"])
        XCTAssertEqual(read.starts, bothStarts)
        XCTAssertEqual(read.problems, [])
    }

    /// Thousands of components opened and never closed, then thousands of ENDs of none of them:
    /// the nesting is kept shallow, so each END looks through a few open components, not all.
    func testDeepDamageIsBoundedAndTheEventsAroundItRead() throws {
        let opened = (0..<20_000).map { "BEGIN:X-PART-\($0 % 2)" }
        let stray = Array(repeating: "END:X-OTHER", count: 20_000)
        let read = try read(header + first + ["BEGIN:X-HOLDER"] + opened + stray + ["END:X-HOLDER"] + second + ["END:VCALENDAR"])
        XCTAssertEqual(read.starts, bothStarts)
        XCTAssertEqual(read.problems.count, reader.problemLimit + 1)
        XCTAssertEqual(read.problems.first, read.path + ":16: BEGIN:X-PART-1 has no END:X-PART-1 before BEGIN:X-PART-0 on line 17; read as ended there")
    }
}
