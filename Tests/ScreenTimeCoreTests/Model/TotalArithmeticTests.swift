import FoundationEssentials
import ScreenTimeCore
import XCTest

final class TotalArithmeticTests: XCTestCase {
    /// The agent's poll timeout after the wall clock stepped back 30 days: the day's end is a month
    /// away, more milliseconds than `Int32` holds.
    func testPollMillisecondsSaturate() {
        XCTAssertEqual(TimeInterval(30 * 86_400).pollMilliseconds, Int32.max)
        XCTAssertEqual(TimeInterval.infinity.pollMilliseconds, Int32.max)
        XCTAssertEqual(TimeInterval(-5).pollMilliseconds, 0)
        XCTAssertEqual(TimeInterval.nan.pollMilliseconds, 0)
        XCTAssertEqual(TimeInterval(0.0001).pollMilliseconds, 1)
        XCTAssertEqual(TimeInterval(2).pollMilliseconds, 2000)
    }

    /// Local dates and times of absurd instants (a stored row, a jump) saturate instead of trapping.
    func testLocalTimesOfAbsurdInstants() {
        let zone = FixedOffsetZone(seconds: 3600)
        for seconds in [1e300, -1e300, TimeInterval.infinity, -TimeInterval.infinity, .nan, 9.3e18] {
            let instant = Date(timeIntervalSince1970: seconds)
            _ = zone.localDateTime(of: instant)
            _ = LocalTimeText.iso8601(instant, in: zone)
            _ = DayBoundary().label(of: instant, in: zone)
            _ = zone.formatMinute(instant)
        }
    }
}
