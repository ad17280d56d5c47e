import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

final class BedtimeLearnerTests: XCTestCase {
    let zone = CentralEuropeanZone()

    /// A simulated user: each day active from `wake` to `bed` (local), with a lunch pause; night n's
    /// bedtime is 23:00 plus `n * 20` minutes, so it drifts across midnight; wake-up 8 hours later.
    func activity(nights: Int, from first: CivilDate) -> [Range<Date>] {
        var intervals: [Range<Date>] = [zone.at("\(first) 08:00")..<zone.at("\(first) 23:00").addingTimeInterval(-1)]
        for night in 0..<nights {
            let evening = first.adding(days: night)
            let bed = zone.at("\(evening) 23:00").addingTimeInterval(Double(night * 20 * 60))
            let wake = bed.addingTimeInterval(8 * 3600)
            let nextBed = zone.at("\(evening.adding(days: 1)) 23:00").addingTimeInterval(Double((night + 1) * 20 * 60))
            // Active until bedtime; the morning's activity resumes at wake, pauses for lunch, goes on till the next bedtime.
            intervals.append(bed.addingTimeInterval(-1800)..<bed)
            intervals.append(wake..<wake.addingTimeInterval(4 * 3600))
            intervals.append(wake.addingTimeInterval(5 * 3600)..<nextBed.addingTimeInterval(-1800))
        }
        return intervals
    }

    func testDefaultsHoldUntilThreeNightsAreKnown() {
        let learner = BedtimeLearner()
        let first = CivilDate(year: 2026, month: 3, day: 2)
        let record = activity(nights: 2, from: first)
        XCTAssertEqual(learner.sleepTimes(activity: record, now: zone.at("2026-03-05 12:00"), zone: zone), .defaults)
    }

    func testLearnedBedtimeMovesLaterAsTheUserSleepsLater() {
        let learner = BedtimeLearner()
        let first = CivilDate(year: 2026, month: 3, day: 2)
        let record = activity(nights: 20, from: first)
        var bedtimes: [String] = []
        for day in 3...20 {
            let evening = zone.at("\(first.adding(days: day)) 18:00")
            let times = learner.sleepTimes(activity: record, now: evening, zone: zone)
            bedtimes.append("\(times.bedtime)")
            if day == 6 {
                // Six nights: 23:00 ... 00:40 average to 23:50 across midnight; wake times 07:00 ... 08:40 to 07:50.
                XCTAssertEqual(times, SleepTimes(bedtime: WallTime(hour: 23, minute: 50), wakeTime: WallTime(hour: 7, minute: 50),
                                                 bedtimeSource: .learned(nights: 6), wakeTimeSource: .learned(nights: 6)))
                // ... and Wind Down that evening starts an hour before the learned bedtime.
                var inputs = ModeInputs()
                inputs.sleepTimes = times
                let next = ModeResolver(inputs: inputs, zone: zone).resolve(at: evening).next
                XCTAssertEqual(next?.at, zone.at("\(first.adding(days: day)) 22:50"))
                XCTAssertEqual(next?.mode, .windDown)
            }
        }
        // Night n sleeps at 23:00 + 20n min; the mean of the last (up to) 14 nights moves 10 min a night, then
        // (once 14 nights are averaged) 20 min a night.
        XCTAssertEqual(bedtimes, ["23:20", "23:30", "23:40", "23:50", "00:00", "00:10", "00:20", "00:30", "00:40", "00:50",
                                  "01:00", "01:10", "01:30", "01:50", "02:10", "02:30", "02:50", "03:10"])
    }

    func testCircularMeanAcrossMidnight() {
        let learner = BedtimeLearner()
        // Three nights at 23:30, 00:30, 00:00.
        var record: [Range<Date>] = []
        for (index, bed) in ["2026-03-02 23:30", "2026-03-04 00:30", "2026-03-05 00:00"].enumerated() {
            let asleep = zone.at(bed)
            record.append(asleep.addingTimeInterval(-3600)..<asleep)
            record.append(asleep.addingTimeInterval(7 * 3600)..<asleep.addingTimeInterval(Double(8 + index) * 3600))
        }
        let times = learner.sleepTimes(activity: record, now: zone.at("2026-03-06 12:00"), zone: zone)
        XCTAssertEqual(times.bedtime, WallTime(hour: 0, minute: 0))
        XCTAssertEqual(times.wakeTime, WallTime(hour: 7, minute: 0))
    }

    func testPinnedTimesWinAndShortNightsDoNotCount() {
        let first = CivilDate(year: 2026, month: 3, day: 2)
        let record = activity(nights: 5, from: first)
        let pinned = BedtimeLearner(pinnedBedtime: WallTime(hour: 22, minute: 15))
            .sleepTimes(activity: record, now: zone.at("2026-03-08 12:00"), zone: zone)
        XCTAssertEqual(pinned.bedtime, WallTime(hour: 22, minute: 15))
        XCTAssertEqual(pinned.bedtimeSource, .pinned)
        XCTAssertEqual(pinned.wakeTimeSource, .learned(nights: 5))
        // A night at the desk with only a two-hour pause is no night of sleep.
        let allNighter = [zone.at("2026-03-02 08:00")..<zone.at("2026-03-03 03:00"), zone.at("2026-03-03 05:00")..<zone.at("2026-03-03 20:00")]
        XCTAssertEqual(BedtimeLearner().nights(activity: allNighter, now: zone.at("2026-03-04 12:00"), zone: zone), [])
    }
}
