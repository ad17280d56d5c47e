import XCTest
@testable import ScreenTimeCore

final class WhitepointTests: XCTestCase {
    func testNeutralTemperatureIsExactlyWhite() {
        let white = Whitepoint.of(kelvin: 6500)
        XCTAssertEqual(white.red, 1)
        XCTAssertEqual(white.green, 1)
        XCTAssertEqual(white.blue, 1)
    }

    func testWarmWhiteKeepsRedAndCutsBlueMost() {
        // Helland's fit at 4000 K is about (255, 206, 166) before rescaling to 6500 K = white.
        let warm = Whitepoint.of(kelvin: 4000)
        XCTAssertEqual(warm.red, 1)
        XCTAssertEqual(warm.green, 205.8 / 254.1, accuracy: 0.01)
        XCTAssertEqual(warm.blue, 166.1 / 250.0, accuracy: 0.01)
        XCTAssertLessThan(warm.blue, warm.green)
    }

    func testLowerTemperaturesAreWarmer() {
        var previous = Whitepoint.of(kelvin: 1000)
        XCTAssertEqual(previous.blue, 0)
        for kelvin in stride(from: 1500.0, through: 6500, by: 500) {
            let next = Whitepoint.of(kelvin: kelvin)
            XCTAssertGreaterThanOrEqual(next.green, previous.green, "\(kelvin) K")
            XCTAssertGreaterThanOrEqual(next.blue, previous.blue, "\(kelvin) K")
            previous = next
        }
    }

    func testColdTemperaturesNeverExceedFullIntensity() {
        let cold = Whitepoint.of(kelvin: 10000)
        XCTAssertLessThanOrEqual(cold.red, 1)
        XCTAssertLessThanOrEqual(cold.green, 1)
        XCTAssertEqual(cold.blue, 1)
        XCTAssertLessThan(cold.red, 1)
    }
}
