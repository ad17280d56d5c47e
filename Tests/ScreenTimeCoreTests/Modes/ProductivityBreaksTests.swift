import FoundationEssentials
import ScreenTimeCore
import XCTest

final class ProductivityBreaksTests: XCTestCase {
    /// Settings the config would refuse (a rhythm of a nanosecond, a negative length) still give an
    /// answer at once rather than a loop of 10^14 turns.
    func testAbsurdRhythmStillAnswers() {
        var breaks = ProductivityBreaks()
        breaks.every = 1e-9
        breaks.length = -3600
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        let state = breaks.state(at: since.addingTimeInterval(2 * 86_400), productivitySince: since, requested: [])
        guard case .working(let next)? = state else { return XCTFail("\(String(describing: state))") }
        XCTAssertGreaterThan(next, since.addingTimeInterval(2 * 86_400))
    }
}
