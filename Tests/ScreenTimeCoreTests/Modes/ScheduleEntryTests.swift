import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

final class ScheduleEntryTests: XCTestCase {
    let zone = CentralEuropeanZone()

    func testDailyOccurrencesKeepTheirLocalTimeAcrossTheSpringChange() {
        let entry = ScheduleEntry(mode: .productivity, start: WallTime(hour: 9, minute: 0), duration: 3 * 3600,
                                  repetition: .weekly(Set(Weekday.allCases)))
        let found = entry.occurrences(in: zone.at("2026-03-28 00:00")..<zone.at("2026-03-30 00:00"), zone: zone)
        XCTAssertEqual(found, [zone.at("2026-03-28 09:00")..<zone.at("2026-03-28 12:00"),
                               zone.at("2026-03-29 09:00")..<zone.at("2026-03-29 12:00")])
        XCTAssertEqual(found[1].lowerBound.timeIntervalSince(found[0].lowerBound), 23 * 3600)
    }

    func testAnOvernightOccurrenceThatBeganBeforeTheRangeIsIncluded() {
        let entry = ScheduleEntry(mode: .sleep, start: WallTime(hour: 23, minute: 0), duration: 8 * 3600,
                                  repetition: .weekly([.friday]))
        let found = entry.occurrences(in: zone.at("2026-03-21 03:00")..<zone.at("2026-03-21 04:00"), zone: zone)
        XCTAssertEqual(found, [zone.at("2026-03-20 23:00")..<zone.at("2026-03-21 07:00")])
    }

    func testOneOffEntryOccursOnce() {
        let entry = ScheduleEntry(mode: .social, start: WallTime(hour: 18, minute: 0), duration: 7200,
                                  repetition: .once(CivilDate(year: 2026, month: 3, day: 21)))
        XCTAssertEqual(entry.occurrences(in: zone.at("2026-03-01 00:00")..<zone.at("2026-04-01 00:00"), zone: zone),
                       [zone.at("2026-03-21 18:00")..<zone.at("2026-03-21 20:00")])
        XCTAssertEqual(entry.occurrences(in: zone.at("2026-03-21 20:00")..<zone.at("2026-03-22 00:00"), zone: zone), [])
    }
}
