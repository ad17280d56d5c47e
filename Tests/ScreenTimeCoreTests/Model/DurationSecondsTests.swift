import ScreenTimeCore
import XCTest

final class DurationSecondsTests: XCTestCase {
    func testASpanIsItsSecondsWhateverItsSignAndSize() {
        XCTAssertEqual(Duration.seconds(1).timeInterval, 1)
        XCTAssertEqual(Duration.milliseconds(1500).timeInterval, 1.5)
        XCTAssertEqual(Duration.seconds(-3600).timeInterval, -3600)
        XCTAssertEqual(Duration.nanoseconds(-1).timeInterval, -1e-9)
        XCTAssertEqual(Duration.zero.timeInterval, 0)
        // Beyond 2^64 attoseconds (18.4 s) the high half counts.
        XCTAssertEqual(Duration.seconds(86_400 * 365).timeInterval, 31_536_000)
        XCTAssertEqual(Duration.seconds(-86_400 * 365).timeInterval, -31_536_000)
        XCTAssertEqual((Duration.seconds(20) + .nanoseconds(250)).timeInterval, 20.000_000_25, accuracy: 1e-12)
    }
}
