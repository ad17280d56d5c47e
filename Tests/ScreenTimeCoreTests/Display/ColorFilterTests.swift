import XCTest
@testable import ScreenTimeCore

final class ColorFilterTests: XCTestCase {
    func testNoneIsTheIdentityMatrix() {
        XCTAssertEqual(ColorFilter.none.matrix(), [1, 0, 0, 0, 1, 0, 0, 0, 1])
        XCTAssertTrue(ColorFilter.none.isIdentity)
        XCTAssertFalse(ColorFilter.none.needsColorMatrix)
    }

    func testGrayscaleHasBT709LumaInEveryRow() {
        let m = ColorFilter.grayscale.matrix()
        for row in 0..<3 {
            XCTAssertEqual(m[row * 3 + 0], 0.2126, accuracy: 1e-12)
            XCTAssertEqual(m[row * 3 + 1], 0.7152, accuracy: 1e-12)
            XCTAssertEqual(m[row * 3 + 2], 0.0722, accuracy: 1e-12)
        }
        XCTAssertTrue(ColorFilter.grayscale.needsColorMatrix)
    }

    func testWarmGrayscaleTintsEachRowByTheWhitepoint() {
        let filter = ColorFilter.warmGrayscale(kelvin: 4000)
        let white = Whitepoint.of(kelvin: 4000)
        let gains = [white.red, white.green, white.blue]
        let m = filter.matrix()
        for row in 0..<3 {
            for column in 0..<3 {
                XCTAssertEqual(m[row * 3 + column], ColorFilter.luma709[column] * gains[row], accuracy: 1e-12)
            }
        }
        // Warm: blue is cut the most, red not at all.
        XCTAssertEqual(m[0] + m[1] + m[2], 1, accuracy: 1e-12)
        XCTAssertLessThan(m[6] + m[7] + m[8], m[3] + m[4] + m[5])
    }

    func testHalfSaturationMixesIdentityAndLuma() {
        let m = ColorFilter(saturation: 0.5).saturationMatrix()
        XCTAssertEqual(m[0], 0.5 + 0.5 * 0.2126, accuracy: 1e-12)
        XCTAssertEqual(m[1], 0.5 * 0.7152, accuracy: 1e-12)
        XCTAssertEqual(m[4], 0.5 + 0.5 * 0.7152, accuracy: 1e-12)
    }

    func testDimScalesEveryChannel() {
        let gains = ColorFilter.dim(0.7).channelGains
        XCTAssertEqual(gains.red, 0.7, accuracy: 1e-12)
        XCTAssertEqual(gains.green, 0.7, accuracy: 1e-12)
        XCTAssertEqual(gains.blue, 0.7, accuracy: 1e-12)
    }

    func testGammaRampStandInKeepsTheTintAndDimsForTheDesaturation() {
        let filter = ColorFilter(saturation: 0, temperature: 3500, brightness: 0.8)
        XCTAssertEqual(filter.gammaRampStandIn.temperature, 3500)
        XCTAssertEqual(filter.gammaRampStandIn.brightness, 0.8 * 0.7, accuracy: 1e-12)
        XCTAssertFalse(filter.gammaRampStandIn.needsColorMatrix)
        XCTAssertEqual(ColorFilter.grayscale.gammaRampStandIn, .dim(0.7))
        XCTAssertEqual(ColorFilter(saturation: 0.5).gammaRampStandIn.brightness, 0.85, accuracy: 1e-12)
        XCTAssertEqual(ColorFilter.warm(kelvin: 4000).gammaRampStandIn, .warm(kelvin: 4000), "nothing to stand in for")
        XCTAssertEqual(ColorFilter.none.gammaRampStandIn, .none)
    }

    func testBlendEndsAreExactAndMiddleIsBetween() {
        let from = ColorFilter.none
        let to = ColorFilter.warmGrayscale(kelvin: 4000)
        XCTAssertEqual(from.blended(toward: to, fraction: 0), from)
        XCTAssertEqual(from.blended(toward: to, fraction: 1), to)
        XCTAssertEqual(from.blended(toward: to, fraction: 7), to)
        let middle = from.blended(toward: to, fraction: 0.5)
        XCTAssertEqual(middle.saturation, 0.5, accuracy: 1e-12)
        XCTAssertLessThan(middle.temperature, 6500)
        XCTAssertGreaterThan(middle.temperature, 4000)
        // Halfway in mireds: 1e6 / ((1e6/6500 + 1e6/4000) / 2).
        XCTAssertEqual(middle.temperature, 2 / (1 / 6500.0 + 1 / 4000.0), accuracy: 1e-6)
    }

    func testValuesAreClampedToTheirRanges() {
        let filter = ColorFilter(saturation: 3, temperature: 100, brightness: -1)
        XCTAssertEqual(filter.saturation, 1)
        XCTAssertEqual(filter.temperature, 1000)
        XCTAssertEqual(filter.brightness, 0)
    }

    func testDescriptionNamesWhatChanges() {
        XCTAssertEqual(ColorFilter.none.description, "none")
        XCTAssertEqual(ColorFilter.warmGrayscale(kelvin: 4000).description, "grayscale, 4000 K")
        XCTAssertEqual(ColorFilter.dim(0.75).description, "brightness 0.75")
    }
}
