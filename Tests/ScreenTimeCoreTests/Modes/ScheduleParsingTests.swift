import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

final class ScheduleParsingTests: XCTestCase {
    let zone = CentralEuropeanZone()
    lazy var now = zone.at("2026-03-16 10:00")  // a Monday

    func testWeeklyEntry() throws {
        let entry = try ScheduleEntry.parse(mode: "productivity", at: "09:00", for: "3h", every: "mon-fri", now: now, zone: zone)
        XCTAssertEqual(entry.mode, .productivity)
        XCTAssertEqual(entry.start, WallTime(hour: 9, minute: 0))
        XCTAssertEqual(entry.duration, 3 * 3600)
        XCTAssertEqual(entry.repetition, .weekly([.monday, .tuesday, .wednesday, .thursday, .friday]))
        XCTAssertEqual(entry.description, "productivity at 09:00 for 3h every mon-fri")
    }

    func testOneOffEntries() throws {
        let dated = try ScheduleEntry.parse(mode: "Wind Down", at: "2026-03-20 21:30", for: "1h30m", now: now, zone: zone)
        XCTAssertEqual(dated.repetition, .once(CivilDate(year: 2026, month: 3, day: 20)))
        XCTAssertEqual(dated.description, "wind-down on 2026-03-20 at 21:30 for 1h30m")
        XCTAssertEqual(try ScheduleEntry.parse(mode: "social", at: "2026-03-20T18:00", now: now, zone: zone).duration,
                       ScheduleEntry.defaultDuration)
        // A bare time without --every means the next such time: 09:00 has passed today, so tomorrow.
        XCTAssertEqual(try ScheduleEntry.parse(mode: "social", at: "09:00", now: now, zone: zone).repetition,
                       .once(CivilDate(year: 2026, month: 3, day: 17)))
        XCTAssertEqual(try ScheduleEntry.parse(mode: "social", at: "11:00", now: now, zone: zone).repetition,
                       .once(CivilDate(year: 2026, month: 3, day: 16)))
        XCTAssertEqual(try ScheduleEntry.parse(mode: "sleep", at: "tomorrow 01:00", now: now, zone: zone).repetition,
                       .once(CivilDate(year: 2026, month: 3, day: 17)))
    }

    func testWhenTextGivesTheInstantMeant() throws {
        XCTAssertEqual(try WhenText.parse("08:00", now: now, zone: zone).instant(after: now, zone: zone), zone.at("2026-03-17 08:00"))
        XCTAssertEqual(try WhenText.parse("Tomorrow 08:00", now: now, zone: zone).instant(after: now, zone: zone), zone.at("2026-03-17 08:00"))
        XCTAssertEqual(try WhenText.parse("2026-03-29", now: now, zone: zone).instant(after: now, zone: zone), zone.at("2026-03-29 00:00"))
    }

    func testDayLists() throws {
        XCTAssertEqual(try DayListText.parse("daily"), Set(Weekday.allCases))
        XCTAssertEqual(try DayListText.parse("sat,sun"), [.saturday, .sunday])
        XCTAssertEqual(try DayListText.parse("fri-mon"), [.friday, .saturday, .sunday, .monday])
        XCTAssertEqual(try DayListText.parse("Monday, wed,fri"), [.monday, .wednesday, .friday])
        XCTAssertEqual(DayListText.format([.monday, .wednesday, .friday]), "mon,wed,fri")
        XCTAssertEqual(DayListText.format([.saturday, .sunday]), "sat-sun")
    }

    func testDurationsUseTheCommonDurationText() throws {
        XCTAssertEqual(try ScheduleEntry.parse(mode: "social", at: "09:00", for: "1h30m", now: now, zone: zone).duration, 5400)
        XCTAssertEqual(try ScheduleEntry.parse(mode: "social", at: "09:00", for: "90s", now: now, zone: zone).description,
                       "social on 2026-03-17 at 09:00 for 1m30s")
    }

    func testErrorsSayWhatToTypeInstead() {
        func message(_ body: () throws -> Any) -> String? {
            do { _ = try body(); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "focus", at: "09:00", now: now, zone: zone) },
                       "“focus” is not a mode; choose one of standard, productivity, social, wind-down, sleep, wake-up.")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "cheat-day", at: "09:00", now: now, zone: zone) },
                       "A Cheat Day is booked at least 12 hours ahead with `screentime cheat-day book WHEN`, not scheduled.")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "25:00", now: now, zone: zone) },
                       "“25:00” is not a time. Write a time as HH:MM (09:00) or a date and time as YYYY-MM-DD HH:MM (2026-03-14 09:00).")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "2026-02-30 09:00", now: now, zone: zone) },
                       "“2026-02-30” is not a date. Write a time as HH:MM (09:00) or a date and time as YYYY-MM-DD HH:MM (2026-03-14 09:00).")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "09:00", for: "3x", now: now, zone: zone) },
                       "`3x` is not a duration (use 1h, 45m, 1h30m, 90s).")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "09:00", for: "0m", now: now, zone: zone) },
                       "--for needs a duration longer than zero, e.g. 1h.")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "09:00", every: "someday", now: now, zone: zone) },
                       "“someday” is not a list of days; write e.g. mon-fri, sat,sun or daily.")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "2026-03-20 09:00", every: "mon", now: now, zone: zone) },
                       "--every repeats a time of day; give --at as HH:MM without a date.")
        XCTAssertEqual(message { try ScheduleEntry.parse(mode: "social", at: "2026-03-15 09:00", now: now, zone: zone) },
                       "2026-03-15 09:00 for 1h is already over.")
    }
}
