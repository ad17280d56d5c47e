import XCTest
import Foundation
import CalendarFeed
import ScreenTimeCore
import Harnesses

/// Every event of the calendars, not only those naming a mode, through real libical.
final class AgendaReaderTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "agenda-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/work", withIntermediateDirectories: true)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(atPath: folder!) }
    }

    func write(_ name: String, _ events: String) throws -> String {
        let path = folder + "/" + name
        let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//screentime tests//EN\n" + events + "END:VCALENDAR\n"
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testEventsOfADayRecurringAllDayZonedAndCancelled() throws {
        try _ = write("work/team.ics", """
            BEGIN:VEVENT
            UID:standup@example
            DTSTART;TZID=America/New_York:20261102T040000
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=30
            EXDATE;TZID=America/New_York:20261201T040000
            SUMMARY:Stand-up
            END:VEVENT
            BEGIN:VEVENT
            UID:review@example
            DTSTART:20261130T130000Z
            DTEND:20261130T140000Z
            SUMMARY:Design\\nreview\u{1b}[2J
            LOCATION:Room 4
            END:VEVENT
            BEGIN:VEVENT
            UID:cancelled@example
            DTSTART:20261130T150000Z
            DTEND:20261130T160000Z
            STATUS:CANCELLED
            SUMMARY:Cancelled call
            END:VEVENT

            """)
        let home = try write("home.ics", """
            BEGIN:VEVENT
            UID:birthday@example
            DTSTART;VALUE=DATE:20261130
            DTEND;VALUE=DATE:20261201
            SUMMARY:Ada's birthday
            END:VEVENT
            BEGIN:VEVENT
            UID:yesterday@example
            DTSTART:20261129T180000
            DTEND:20261129T190000
            SUMMARY:Yesterday's dinner
            END:VEVENT

            """)
        let day = zone.at("2026-11-30 00:00")..<zone.at("2026-12-02 00:00")
        let result = AgendaReader(zone: zone).read(paths: [folder + "/work", home], range: day)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.events, [
            AgendaEvent(title: "Ada's birthday", start: zone.at("2026-11-30 00:00"), end: zone.at("2026-12-01 00:00"), allDay: true),
            // 04:00 in New York is 10:00 in Berlin (both on winter time).
            AgendaEvent(title: "Stand-up", start: zone.at("2026-11-30 10:00"), end: zone.at("2026-11-30 10:15"), allDay: false),
            AgendaEvent(title: "Design review[2J", start: zone.at("2026-11-30 14:00"), end: zone.at("2026-11-30 15:00"), allDay: false,
                        location: "Room 4"),
            // 1 December is excepted; the rule's 30 days end on 1 December anyway.
        ])
    }

    func testAnUnreadableFileIsNamedAndTheOthersStillRead() throws {
        let good = try write("good.ics", "BEGIN:VEVENT\nUID:a\nDTSTART:20261130T090000Z\nDTEND:20261130T100000Z\nSUMMARY:Read\nEND:VEVENT\n")
        let broken = folder + "/broken.ics"
        try "this is not a calendar".write(toFile: broken, atomically: true, encoding: .utf8)
        let result = AgendaReader(zone: zone).read(paths: [broken, good, folder + "/missing.ics"],
                                                   range: zone.at("2026-11-30 00:00")..<zone.at("2026-12-01 00:00"))
        XCTAssertEqual(result.events.map(\.title), ["Read"])
        XCTAssertEqual(result.problems.map(\.path), [broken, folder + "/missing.ics"])
    }

    func testAtMostTheLimit() throws {
        let path = try write("hourly.ics", "BEGIN:VEVENT\nUID:h\nDTSTART:20261130T000000Z\nDURATION:PT30M\nRRULE:FREQ=HOURLY\nSUMMARY:Ping\nEND:VEVENT\n")
        var reader = AgendaReader(zone: zone)
        reader.limit = 5
        let result = reader.read(paths: [path], range: zone.at("2026-11-30 00:00")..<zone.at("2026-12-01 00:00"))
        XCTAssertEqual(result.events.count, 5)
        XCTAssertEqual(result.events.first?.start, zone.at("2026-11-30 01:00"))
        XCTAssertEqual(result.problems.map(\.message), ["23 events in the range; the first 5 are shown"])
    }
}
