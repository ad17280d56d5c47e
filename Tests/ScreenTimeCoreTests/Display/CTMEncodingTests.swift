import XCTest
@testable import ScreenTimeCore

final class CTMEncodingTests: XCTestCase {
    func testIdentityEncodesOneAsLowZeroHighOne() {
        let words = CTMEncoding.encode([1, 0, 0, 0, 1, 0, 0, 0, 1])
        XCTAssertEqual(words.count, 18)
        XCTAssertEqual(words[0], 0) // fraction word first
        XCTAssertEqual(words[1], 1) // integer part
        XCTAssertEqual(Array(words[2...7]), [0, 0, 0, 0, 0, 0])
        XCTAssertEqual(words[8], 0)
        XCTAssertEqual(words[9], 1)
        XCTAssertEqual(words, CTMEncoding.identity)
    }

    func testNegativeHalfSetsTheSignBitAndKeepsTheMagnitude() {
        let words = CTMEncoding.encode([-0.5, 0.5, 0, 0, 0, 0, 0, 0, -2.25])
        XCTAssertEqual(words[0], 0x8000_0000)
        XCTAssertEqual(words[1], 0x8000_0000)
        XCTAssertEqual(words[2], 0x8000_0000)
        XCTAssertEqual(words[3], 0)
        XCTAssertEqual(words[16], 0x4000_0000)
        XCTAssertEqual(words[17], 0x8000_0002)
    }

    func testNegativeZeroEncodesAsZero() {
        XCTAssertEqual(CTMEncoding.encode([-0.0, 0, 0, 0, 0, 0, 0, 0, 0]), [UInt32](repeating: 0, count: 18))
    }

    func testGrayscaleRoundTripsWithinOneStep() throws {
        let matrix = ColorFilter.warmGrayscale(kelvin: 3400).matrix()
        let decoded = try CTMEncoding.decode(CTMEncoding.encode(matrix))
        for (a, b) in zip(matrix, decoded) { XCTAssertEqual(a, b, accuracy: 1.0 / 4_294_967_296) }
        let gray = try CTMEncoding.decode(CTMEncoding.encode(ColorFilter.grayscale.matrix()))
        XCTAssertEqual(gray[3], 0.2126, accuracy: 1e-9)
        XCTAssertEqual(gray[4], 0.7152, accuracy: 1e-9)
        XCTAssertEqual(gray[5], 0.0722, accuracy: 1e-9)
    }

    func testDecodeRejectsAWrongLength() {
        XCTAssertThrowsError(try CTMEncoding.decode([0, 1])) { error in
            XCTAssertEqual(error as? CTMEncoding.DecodingError, .wrongWordCount(2))
        }
    }
}
