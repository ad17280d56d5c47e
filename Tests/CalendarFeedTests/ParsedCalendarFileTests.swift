import XCTest
import CalendarFeed
import ScreenTimeCore
import Harnesses

final class ParsedCalendarFileTests: XCTestCase {
    let march = Date(timeIntervalSince1970: 1_772_323_200)..<Date(timeIntervalSince1970: 1_777_593_600)

    /// Hundreds of damaged lines: every event is still read, the problems shown are bounded, and
    /// each names the line it quotes and the UID of its event.
    func testAFileWithManyWarningsGivesEveryEventAndABoundedListOfProblems() throws {
        let export = DamagedCalendarExport(approximateBytes: 300_000, damagedEvery: 3)
        XCTAssertGreaterThan(export.damagedLines, 400)
        let fixture = try CalendarFileFixture()
        let path = try fixture.write("export.ics", bytes: Array(export.text.utf8))
        var reader = CalendarReader(zone: FixedOffsetZone(seconds: 0))
        reader.perFileLimit = .max
        let result = try reader.readFile(path, range: march)
        XCTAssertEqual(result.intervals.count, export.modeOccurrences)

        XCTAssertEqual(result.problems.count, reader.problemLimit + 1)
        XCTAssertEqual(result.problems.last?.description, path + ": \(export.damagedLines - reader.problemLimit) more problems not shown")
        let lines = export.text.components(separatedBy: "\r\n")
        for problem in result.problems.dropLast() {
            let line = try XCTUnwrap(problem.line, "\(problem)")
            // Each damaged line ends with its event's number.
            let event = try XCTUnwrap(lines[line - 1].split(whereSeparator: { !$0.isNumber }).last.flatMap { Int($0) }, lines[line - 1])
            XCTAssertTrue(problem.message.hasPrefix("skipped: "), "\(problem)")
            XCTAssertTrue(problem.message.hasSuffix(lines[line - 1].split(separator: ":").last.map(String.init) ?? lines[line - 1]), "\(problem) quotes line \(line): \(lines[line - 1])")
            XCTAssertEqual(problem.uid, "event-\(event)@damaged.example", "\(problem)")
        }
    }

    func testANulByteIsNamedAndTheRestOfTheFileRead() throws {
        let fixture = try CalendarFileFixture()
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
            + CalendarFileFixture.event("first@example", at: "20260310T080000")
        lines.insert("DESCRIPTION:cut\u{0}here", at: 8)
        lines += CalendarFileFixture.event("second@example", at: "20260311T080000") + ["END:VCALENDAR"]
        let path = try fixture.write("nul.ics", lines: lines)
        let result = CalendarReader(zone: FixedOffsetZone(seconds: 0)).read(paths: [path], range: march)
        XCTAssertEqual(result.intervals.map(\.start), [Date(timeIntervalSince1970: 1_773_129_600), Date(timeIntervalSince1970: 1_773_216_000)])
        XCTAssertEqual(result.problems.map(\.description), [path + ":9: a NUL byte, left out (the rest of the file is read)"])
    }

    func testALatin1LineIsNamedAndItsEventRead() throws {
        let fixture = try CalendarFileFixture()
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
            + CalendarFileFixture.event("cafe@example", at: "20260310T080000", summary: "Social: caf\u{1}") + ["END:VCALENDAR"]
        // "\u{1}" stands for Latin-1 "é" (0xE9), which is not UTF-8.
        let path = try fixture.write("latin1.ics", bytes: Array(lines.map { $0 + "\r\n" }.joined().utf8).map { $0 == 1 ? 0xE9 : $0 })
        let result = CalendarReader(zone: FixedOffsetZone(seconds: 0)).read(paths: [path], range: march)
        XCTAssertEqual(result.intervals.map(\.summary), ["Social: caf\u{FFFD}"])
        XCTAssertEqual(result.problems.map(\.description), [path + ":8: not UTF-8; the bytes that are not are read as “�”"])
    }

    /// The empty DESCRIPTION and LOCATION of nearly every Google and Exchange event are no
    /// problem to name; an empty DTEND is (the event is read without it).
    func testEmptyDescriptiveLinesAreNotProblemsButAnEmptyTimeIs() throws {
        let fixture = try CalendarFileFixture()
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
            + CalendarFileFixture.event("plain@example", at: "20260310T080000")
        lines.insert(contentsOf: ["DESCRIPTION:", "LOCATION:", "DTEND:"], at: 5)
        lines += ["END:VCALENDAR"]
        let path = try fixture.write("google.ics", lines: lines)
        let result = CalendarReader(zone: FixedOffsetZone(seconds: 0)).read(paths: [path], range: march)
        XCTAssertEqual(result.intervals.count, 1)
        XCTAssertEqual(result.problems.map(\.description), [path + ": UID plain@example: skipped: No value for DTEND property. Removing entire property:"])
    }
}
