import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

final class LocalWallClockTests: XCTestCase {
    let zone = CentralEuropeanZone()

    func testCivilDatesRoundTripAndKnowTheirWeekday() {
        for days in [-800_000, -1, 0, 1, 20_527, 60_000] {
            XCTAssertEqual(CivilDate(daysSinceEpoch: days).daysSinceEpoch, days)
        }
        XCTAssertEqual(CivilDate(daysSinceEpoch: 0), CivilDate(year: 1970, month: 1, day: 1))
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 14).weekday, .saturday)
        XCTAssertEqual(CivilDate(year: 2024, month: 2, day: 29).adding(days: 1), CivilDate(year: 2024, month: 3, day: 1))
        XCTAssertFalse(CivilDate(year: 2026, month: 2, day: 29).isValid)
    }

    func testOffsetsFollowTheEuropeanRule() {
        let utc = FixedOffsetZone(seconds: 0)
        XCTAssertEqual(zone.utcOffset(at: utc.at("2026-03-29 00:59:59")), 3600)
        XCTAssertEqual(zone.utcOffset(at: utc.at("2026-03-29 01:00")), 7200)
        XCTAssertEqual(zone.utcOffset(at: utc.at("2026-10-25 00:59:59")), 7200)
        XCTAssertEqual(zone.utcOffset(at: utc.at("2026-10-25 01:00")), 3600)
    }

    func testLocalTimesMapToInstantsAcrossDaylightSavingChanges() {
        let utc = FixedOffsetZone(seconds: 0)
        XCTAssertEqual(zone.at("2026-03-28 09:00"), utc.at("2026-03-28 08:00"))
        XCTAssertEqual(zone.at("2026-03-30 09:00"), utc.at("2026-03-30 07:00"))
        // 02:30 does not exist on 29 March: read with the offset before the gap, i.e. 03:30 CEST.
        XCTAssertEqual(zone.at("2026-03-29 02:30"), utc.at("2026-03-29 01:30"))
        XCTAssertEqual(zone.localDateTime(of: zone.at("2026-03-29 02:30")).description, "2026-03-29 03:30")
        // 02:30 happens twice on 25 October: the first one (CEST).
        XCTAssertEqual(zone.at("2026-10-25 02:30"), utc.at("2026-10-25 00:30"))
        XCTAssertEqual(zone.localDateTime(of: utc.at("2026-10-25 01:30")).description, "2026-10-25 02:30")
    }

    func testFormattingRoundsUpToTheMinute() {
        XCTAssertEqual(zone.formatMinute(zone.at("2026-12-24 07:59:30")), "2026-12-24 08:00")
        XCTAssertEqual(zone.formatMinute(zone.at("2026-12-24 08:00")), "2026-12-24 08:00")
    }
}
