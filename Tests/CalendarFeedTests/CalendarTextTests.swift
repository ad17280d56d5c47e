import XCTest
@testable import CalendarFeed

final class CalendarTextTests: XCTestCase {
    func testLinesEndWithCRLFOrLFOrCR() {
        let text = CalendarText(fileBytes: Array("one\r\ntwo\nthree\rfour".utf8))
        XCTAssertEqual(text.lineCount, 4)
        XCTAssertEqual((1...4).map { String(text.text(ofLine: $0)) }, ["one", "two", "three", "four"])
        XCTAssertEqual(text.line(atOffset: 0), 1)
        XCTAssertEqual(text.line(atOffset: 5), 2)
        XCTAssertEqual(text.line(atOffset: 18), 4)
    }

    func testNulBytesAreLeftOutAndTheirLinesNamed() {
        let text = CalendarText(fileBytes: Array("a\0b\r\nclean\r\n\0\0c\r\n".utf8))
        XCTAssertEqual(text.bytes, Array("ab\r\nclean\r\nc\r\n".utf8))
        XCTAssertEqual(text.linesWithNul, [1, 3])
        XCTAssertEqual(text.lineCount, 3)
    }

    func testLinesThatAreNotUTF8AreNamed() {
        XCTAssertEqual(CalendarText(fileBytes: Array("SUMMARY:Café\r\n".utf8)).linesNotUTF8, [])
        // "Café" in Latin-1 on line 2.
        XCTAssertEqual(CalendarText(fileBytes: Array("BEGIN:VEVENT\r\nSUMMARY:Caf".utf8) + [0xE9] + Array("\r\nEND:VEVENT\r\n".utf8)).linesNotUTF8, [2])
    }

    func testAFindStartsAfterThePreviousOneAndWrapsAround() throws {
        let text = CalendarText(fileBytes: Array("BOGUS\r\nok\r\nBOGUS\r\nother\r\n".utf8))
        let first = try XCTUnwrap(text.firstLine(containing: "BOGUS"))
        XCTAssertEqual(first.line, 1)
        let second = try XCTUnwrap(text.firstLine(containing: "BOGUS", from: first.end))
        XCTAssertEqual(second.line, 3)
        XCTAssertEqual(text.firstLine(containing: "ok", from: second.end)?.line, 2)
        XCTAssertNil(text.firstLine(containing: "absent"))
    }

    func testPropertyNamesAreMatchedInAnyCaseBeforeAColonOrSemicolon() {
        let text = CalendarText(fileBytes: Array("begin:VEVENT\r\nUID;X=1:a\r\nUIDX:b\r\nEND\r\n".utf8))
        XCTAssertTrue(text.line(1, startsWithName: "BEGIN"))
        XCTAssertTrue(text.line(2, startsWithName: "UID"))
        XCTAssertFalse(text.line(3, startsWithName: "UID"))
        XCTAssertFalse(text.line(4, startsWithName: "END"))
    }
}
