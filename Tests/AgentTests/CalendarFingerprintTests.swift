import Agent
import Foundation
import XCTest

final class CalendarFingerprintTests: XCTestCase {
    func testChangesWhenAFileChangesOrIsAdded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calendars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("personal"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        try write("a.ics", "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
        try write("notes.txt", "not a calendar")
        let before = CalendarFingerprint(paths: [folder.path])
        XCTAssertEqual(CalendarFingerprint(paths: [folder.path]), before)
        try write("a.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Social\nEND:VEVENT\nEND:VCALENDAR\n")
        let edited = CalendarFingerprint(paths: [folder.path])
        XCTAssertNotEqual(edited, before)
        try write("personal/b.ics", "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
        let added = CalendarFingerprint(paths: [folder.path])
        XCTAssertNotEqual(added, edited)
        // The folder, a.ics, the collection folder and its b.ics; not notes.txt.
        XCTAssertEqual(Set(added.stamps.keys.map { $0.replacingOccurrences(of: folder.path, with: "") }),
                       ["", "/a.ics", "/personal", "/personal/b.ics"])
    }
}
