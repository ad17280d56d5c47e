import Agent
import Foundation
import XCTest

final class CalendarFingerprintTests: XCTestCase {
    func testChangesWhenACalendarFileChangesOnly() throws {
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
        XCTAssertEqual(Set(added.stamps.keys.map { $0.replacingOccurrences(of: folder.path, with: "") }), ["/a.ics", "/personal/b.ics"])

        // What a sync leaves beside the calendars, come and gone, is no change.
        try write("personal/tmpx81k2q", "half a sync")
        try write("personal/displayname", "Personal")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("new"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("personal/tmpx81k2q"))
        XCTAssertEqual(CalendarFingerprint(paths: [folder.path]), added)

        // The same text renamed over a file is another file (its inode), whatever its size and time.
        let replacement = folder.appendingPathComponent("personal/.b.ics.tmp")
        try "BEGIN:VCALENDAR\nEND:VCALENDAR\n".write(to: replacement, atomically: false, encoding: .utf8)
        let stamp = try XCTUnwrap(added.stamps[folder.appendingPathComponent("personal/b.ics").path])
        var times = [timespec(tv_sec: Int(stamp.modifiedNanoseconds / 1_000_000_000), tv_nsec: Int(stamp.modifiedNanoseconds % 1_000_000_000))]
        times.append(times[0])
        XCTAssertEqual(utimensat(AT_FDCWD, replacement.path, times, 0), 0)
        XCTAssertEqual(rename(replacement.path, folder.appendingPathComponent("personal/b.ics").path), 0)
        XCTAssertNotEqual(CalendarFingerprint(paths: [folder.path]), added)
    }
}
