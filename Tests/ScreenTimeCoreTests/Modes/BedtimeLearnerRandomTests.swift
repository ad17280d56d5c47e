import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The learner fed seeded random activity (overlapping, out of order, some absurd, as a damaged or
/// hand-edited database could hold): it always answers, with nights it could really have seen.
final class BedtimeLearnerRandomTests: XCTestCase {
    func testSeededRandomActivity() {
        let seeds = SplitMix64.seeds(count: 8, environment: ProcessInfo.processInfo.environment)
        var nights = 0
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            let zone: LocalTimeZone = random.chance(0.5) ? CentralEuropeanZone() : FixedOffsetZone(seconds: Int.random(in: -12...14, using: &random) * 3600)
            for _ in 0..<200 {
                let now = Date(timeIntervalSince1970: TimeInterval.random(in: 1e9...2.1e9, using: &random).rounded())
                let activity: [Range<Date>] = (0..<Int.random(in: 0..<60, using: &random)).map { _ in
                    let start = random.chance(0.02) ? Date(timeIntervalSince1970: random.pick([1e300, -1e300, 9.3e18]))
                        : random.instant(near: now.addingTimeInterval(-8 * 86_400), within: 8 * 86_400)
                    return start..<start.addingTimeInterval(random.seconds(0...6 * 3600))
                }
                let learner = BedtimeLearner(pinnedBedtime: random.chance(0.2) ? random.wallTime() : nil)
                let found = learner.nights(activity: activity, now: now, zone: zone)
                for night in found {
                    XCTAssertLessThanOrEqual(night.awake, now, "seed \(seed)")
                    XCTAssertGreaterThanOrEqual(night.awake.timeIntervalSince(night.asleep), BedtimeLearner.shortestSleep, "seed \(seed)")
                }
                nights += found.count
                _ = learner.sleepTimes(activity: activity, now: now, zone: zone).summary
            }
        }
        print("BedtimeLearner random runs: \(seeds.count * 200) histories, \(nights) nights found, seeds \(seeds.map(String.init).joined(separator: ","))")
    }
}
