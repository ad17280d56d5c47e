import ScreenTimeCore
import XCTest

final class PlainLineTests: XCTestCase {
    func testOneLineWithoutControlsOrOverrides() {
        XCTAssertEqual(PlainLine.of("  Rivers\n\t&  lakes\r\n"), "Rivers & lakes")
        XCTAssertEqual(PlainLine.of("red \u{1b}[31malert\u{1b}[0m\u{7}"), "red [31malert[0m")
        XCTAssertEqual(PlainLine.of("abc\u{202E}fed\u{2066}x\u{2069}"), "abcfedx")
        XCTAssertEqual(PlainLine.of("مرحبا بالعالم"), "مرحبا بالعالم")
        XCTAssertEqual(PlainLine.of(String(repeating: "a", count: 300), limit: 10), "aaaaaaaaa…")
    }
}
