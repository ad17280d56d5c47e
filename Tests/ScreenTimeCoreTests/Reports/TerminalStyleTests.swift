import ScreenTimeCore
import XCTest

final class TerminalStyleTests: XCTestCase {
    func testColumnsWinOverTheTerminalAndColourNeedsATerminalWithoutNoColor() {
        XCTAssertEqual(TerminalStyle(environment: ["COLUMNS": "60"], terminalColumns: 120), TerminalStyle(width: 60, colour: true))
        XCTAssertEqual(TerminalStyle(environment: [:], terminalColumns: 120), TerminalStyle(width: 120, colour: true))
        XCTAssertEqual(TerminalStyle(environment: ["NO_COLOR": "1"], terminalColumns: 120), TerminalStyle(width: 120, colour: false))
        XCTAssertEqual(TerminalStyle(environment: ["COLUMNS": "x"], terminalColumns: nil), TerminalStyle(width: 80, colour: false))
    }
}
