import ScreenTimeCore
import XCTest

final class DurationTextTests: XCTestCase {
    func testParsesTheForms() throws {
        XCTAssertEqual(try DurationText.parse("1h"), 3600)
        XCTAssertEqual(try DurationText.parse("45m"), 2700)
        XCTAssertEqual(try DurationText.parse("1h30m"), 5400)
        XCTAssertEqual(try DurationText.parse("90s"), 90)
        XCTAssertEqual(try DurationText.parse(" 2H "), 7200)
        for bad in ["", "45", "m", "1x", "1h30", "-5m", "1.5h"] {
            XCTAssertThrowsError(try DurationText.parse(bad), bad)
        }
    }

    func testFormats() {
        XCTAssertEqual(DurationText.format(5400), "1h30m")
        XCTAssertEqual(DurationText.format(90), "1m30s")
        XCTAssertEqual(DurationText.format(0), "0s")
        XCTAssertEqual(DurationText.spoken(3725), "1 h 2 min")
        XCTAssertEqual(DurationText.spoken(3600), "1 h")
        XCTAssertEqual(DurationText.spoken(600), "10 min")
        XCTAssertEqual(DurationText.spoken(5), "5 s")
    }
}

final class DurationTextBoundsTests: XCTestCase {
    func testRefusesMoreThanTheLongestNamingTheText() {
        for text in ["999999999999999999h", "99999999999999999999999s", "8785h", "8784h1s", "527041m"] {
            XCTAssertThrowsError(try DurationText.parse(text), text) { error in
                XCTAssertEqual((error as? DurationText.ParseError)?.tooLong, true, text)
                XCTAssertTrue("\(error)".contains(text), "\(error)")
            }
        }
        XCTAssertEqual(try DurationText.parse("8784h"), DurationText.longest)
    }

    func testFormattingAnyNumberIsTotal() {
        for value in [TimeInterval.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, TimeInterval(UInt64.max)] {
            _ = DurationText.format(value)
            _ = DurationText.spoken(value)
        }
        XCTAssertEqual(DurationText.spoken(-5), "0 s")
        XCTAssertEqual(DurationText.format(.nan), "0s")
    }
}
