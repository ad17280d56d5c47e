import ScreenTimeCore
import XCTest

final class KeyFileTests: XCTestCase {
    let text = """
        # my limits
        [limits]
        default = 1h
        # work browser
        firefox = 45m

        [exemptions]
        important = keepassxc
        """

    func testEditsKeepCommentsAndOrder() throws {
        var file = try KeyFile(parsing: text)
        file.set("firefox", to: "30m", in: "limits")
        file.set("chromium", to: "20m", in: "limits")
        file.set("day-start", to: "05:00", in: "general")
        XCTAssertEqual(file.text, """
            # my limits
            [limits]
            default = 1h
            # work browser
            firefox = 30m
            chromium = 20m

            [exemptions]
            important = keepassxc

            [general]
            day-start = 05:00

            """)
        XCTAssertTrue(file.remove("firefox", in: "limits"))
        XCTAssertFalse(file.remove("firefox", in: "limits"))
        XCTAssertNil(file.value("firefox", in: "limits"))
        XCTAssertTrue(file.text.contains("# work browser\nchromium = 20m"))
    }

    func testRoundTripIsByteForByte() throws {
        XCTAssertEqual(try KeyFile(parsing: text).text, text + "\n")
    }

    func testBrokenLineIsNamed() {
        XCTAssertThrowsError(try KeyFile(parsing: "[limits]\nfirefox 45m\n")) { error in
            XCTAssertEqual(error as? KeyFile.ParseError, KeyFile.ParseError(line: 2, message: "expected `key = value`, `[section]` or a # comment, found `firefox 45m`"))
        }
        XCTAssertThrowsError(try KeyFile(parsing: "firefox = 1h\n")) { error in
            XCTAssertEqual((error as? KeyFile.ParseError)?.line, 1)
        }
        XCTAssertThrowsError(try KeyFile(parsing: "[limits\n")) { error in
            XCTAssertEqual((error as? KeyFile.ParseError)?.line, 1)
        }
    }
}
