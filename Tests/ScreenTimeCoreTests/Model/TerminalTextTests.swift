import ScreenTimeCore
import XCTest

final class TerminalTextTests: XCTestCase {
    /// Issue 19: `xterm -class $'esc\e]0;INJECTED\a'` set the terminal's title through `apps`.
    func testControlCharactersBecomeReplacementCharacters() {
        XCTAssertEqual(TerminalText.printable("esc\u{1B}]0;INJECTED\u{07}"), "esc\u{FFFD}]0;INJECTED\u{FFFD}")
        XCTAssertEqual(TerminalText.printable("a\u{00}b\u{7F}c\u{9B}31m\u{85}"), "a\u{FFFD}b\u{FFFD}c\u{FFFD}31m\u{FFFD}")
        XCTAssertEqual(TerminalText.printable("over\rwrite\u{08}"), "over\u{FFFD}write\u{FFFD}")
    }

    /// "\r\n" and ESC with a combining mark are each one `Character`; the control inside still goes.
    func testControlsInsideGraphemeClustersAreReplaced() {
        XCTAssertEqual(TerminalText.printable("a\r\nb"), "a\u{FFFD}\nb")
        XCTAssertEqual(TerminalText.printable("\u{1B}\u{0301}[2J"), "\u{FFFD}\u{0301}[2J")
    }

    func testLinesTabsAndOtherTextAreKept() {
        let text = "Firefox\tcafé 🎉 — \u{0600}<>\nnext"
        XCTAssertEqual(TerminalText.printable(text), text)
        XCTAssertEqual(TerminalText.printable(""), "")
    }
}
