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

    /// Reading is linear in the file: 8,000 limits once took the agent seconds to start.
    func testAFileOfTwentyThousandEntriesIsReadInUnderASecond() throws {
        let text = "[limits]\n" + (0..<20_000).map { "app-\($0) = 1h\n" }.joined()
        let started = ContinuousClock.now
        let file = try KeyFile(parsing: text)
        XCTAssertEqual(file.entries(in: "limits").count, 20_000)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
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

final class KeyFileLineEndingTests: XCTestCase {
    func testReadsCRLFAndAByteOrderMarkAndWritesThemBack() throws {
        let text = "\u{FEFF}# mine\r\n[limits]\r\nfirefox = 45m\r\n"
        var file = try KeyFile(parsing: text)
        XCTAssertEqual(file.value("firefox", in: "limits"), "45m")
        XCTAssertEqual(try Settings(file, path: "config").limit(for: "firefox"), 45 * 60)
        XCTAssertEqual(file.text, text)
        file.set("firefox", to: "1h", in: "limits")
        XCTAssertEqual(file.text, "\u{FEFF}# mine\r\n[limits]\r\nfirefox = 1h\r\n")
    }

    func testDuplicateKeysAreNamedWithBothLines() throws {
        let file = try KeyFile(parsing: "[limits]\nfirefox = 1h\n[general]\n[limits]\nfirefox = 2h\n")
        XCTAssertThrowsError(try Settings(file, path: "config")) { error in
            XCTAssertEqual("\(error)", "config:5: `firefox` is set twice in [limits] (lines 2 and 5); keep one")
        }
    }

    /// The CLI's edits set a key where it is, so they never make a duplicate.
    func testEditsNeverDuplicate() throws {
        var file = try KeyFile(parsing: "[limits]\nfirefox = 1h\n[general]\nidle-after = 3m\n")
        for value in ["2h", "3h"] {
            file.set("firefox", to: value, in: "limits")
            file.set("idle-after", to: "5m", in: "general")
        }
        file.set("mpv", to: "1m", in: "limits")
        XCTAssertNoThrow(try Settings(KeyFile(parsing: file.text), path: "config"))
        XCTAssertEqual(file.text, "[limits]\nfirefox = 3h\nmpv = 1m\n[general]\nidle-after = 5m\n")
    }
}
