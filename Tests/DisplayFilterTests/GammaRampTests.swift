import XCTest
@testable import DisplayFilter

final class GammaRampTests: XCTestCase {
    func testIdentityRunsFromZeroToFull() {
        let ramp = GammaRamp.identity(size: 256)
        XCTAssertEqual(ramp.red.first, 0)
        XCTAssertEqual(ramp.red.last, 65535)
        XCTAssertEqual(ramp.red[1], 257)
    }

    func testScalingMultipliesEachChannelAndLeavesGainOneUntouched() {
        let ramp = GammaRamp(red: [0, 1001, 65535], green: [0, 1000, 65535], blue: [0, 3, 65535])
        let scaled = ramp.scaled(red: 1, green: 0.5, blue: 0.5)
        XCTAssertEqual(scaled.red, ramp.red)
        XCTAssertEqual(scaled.green, [0, 500, 32768])
        XCTAssertEqual(scaled.blue, [0, 2, 32768])
    }
}
