import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

final class LocalTimeZoneTests: XCTestCase {
    /// 2026-11-29 00:00 UTC.
    let midnight = Date(timeIntervalSince1970: 1_795_910_400)

    func testDayStartsAtFourLocal() {
        let zone = FixedOffsetZone(seconds: 3600)
        let day = DayBoundary()
        // 02:30 local on the 29th still belongs to the 28th.
        let lateNight = midnight.addingTimeInterval(1.5 * 3600)
        XCTAssertEqual(day.start(of: lateNight, in: zone), midnight.addingTimeInterval(-86_400 + 3 * 3600))
        XCTAssertEqual(day.label(of: lateNight, in: zone), "2026-11-28")
        let morning = midnight.addingTimeInterval(8 * 3600)
        XCTAssertEqual(day.start(of: morning, in: zone), midnight.addingTimeInterval(3 * 3600))
        XCTAssertEqual(day.end(of: morning, in: zone), midnight.addingTimeInterval(27 * 3600))
        XCTAssertEqual(day.label(of: morning, in: zone), "2026-11-29")
    }

    func testCivilDateRoundTrip() {
        let date = CivilDate(localSeconds: midnight.timeIntervalSince1970)
        XCTAssertEqual(date, CivilDate(year: 2026, month: 11, day: 29))
        XCTAssertEqual(date.daysSinceEpoch * 86_400, Int(midnight.timeIntervalSince1970))
        XCTAssertEqual(CivilDate(localSeconds: 951_782_400).description, "2000-02-29")
    }
}

final class DayBoundaryDaylightSavingTests: XCTestCase {
    func testTheSpringForwardDayIsTwentyThreeHoursAndTheAutumnDayTwentyFive() {
        let zone = CentralEuropeanZone()
        let day = DayBoundary()
        let spring = zone.at("2026-03-29 12:00")
        XCTAssertEqual(day.start(of: spring, in: zone), zone.at("2026-03-29 04:00"))
        XCTAssertEqual(day.end(of: spring, in: zone).timeIntervalSince(day.start(of: spring, in: zone)), 24 * 3600)
        let saturday = zone.at("2026-03-28 12:00")
        XCTAssertEqual(day.end(of: saturday, in: zone).timeIntervalSince(day.start(of: saturday, in: zone)), 23 * 3600)
        let autumnSaturday = zone.at("2026-10-24 12:00")
        XCTAssertEqual(day.end(of: autumnSaturday, in: zone).timeIntervalSince(day.start(of: autumnSaturday, in: zone)), 25 * 3600)
        XCTAssertEqual(day.label(of: zone.at("2026-10-25 03:30"), in: zone), "2026-10-24")
    }
}
