import Foundation
import LocalSystem
import Harnesses
import XCTest

/// Which files a calendar path stands for, on folders in the shapes calendar clients leave on disk.
final class CalendarTreeTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("calendar-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
    }

    func write(_ relative: String, _ text: String = CalendarClientFiles.calendar([])) throws {
        try CalendarClientFiles.write(text, to: root.appendingPathComponent(relative))
    }

    func relative(_ paths: [String]) -> [String] {
        paths.map { $0 == root.path ? "" : String($0.dropFirst(root.path.count + 1)) }
    }

    /// vdirsyncer and khal: a folder per calendar with `displayname` and `color` beside `<uid>.ics`,
    /// temporary files mid-sync (`tmpXXXX` before the link, hidden ones before a rename), a `.git`
    /// some users keep; under an account folder one level more.
    func testAVdirOfCalendarsAndOfAccounts() throws {
        for calendar in ["personal", "work"] {
            try write("calendars/\(calendar)/displayname", calendar)
            try write("calendars/\(calendar)/color", "#3a87ad")
            try write("calendars/\(calendar)/4f2d8a0e-9c1b-4b7e-a1d2-\(calendar).ics")
        }
        try write("calendars/work/040000008200E00074C5B7101A82E00800000000D0C2@google.com.ics")
        try write("calendars/work/tmpk2j9x0qa", "half a sync")
        try write("calendars/work/.4f2d8a0e.ics.tmp", "half a rename")
        try write("calendars/.git/objects/ab.ics")
        try write("calendars/personal/NOTES.ICS")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("calendars/new"), withIntermediateDirectories: true)
        let tree = try CalendarTree(path: root.appendingPathComponent("calendars").path)
        XCTAssertEqual(relative(tree.files), [
            "calendars/personal/4f2d8a0e-9c1b-4b7e-a1d2-personal.ics", "calendars/personal/NOTES.ICS",
            "calendars/work/040000008200E00074C5B7101A82E00800000000D0C2@google.com.ics",
            "calendars/work/4f2d8a0e-9c1b-4b7e-a1d2-work.ics",
        ])
        XCTAssertEqual(Set(relative(tree.folders)), ["calendars", "calendars/personal", "calendars/work", "calendars/new"],
                       "the empty calendar is watched: a sync fills it later")

        // The account level above: account/calendar/item.ics is read from the folder of accounts.
        try write("accounts/nextcloud/personal/a.ics")
        try write("accounts/nextcloud/personal/displayname", "Personal")
        try write("accounts/fastmail/family/b.ics")
        try write("accounts/fastmail/family/attachments/c.ics")
        XCTAssertEqual(relative(try CalendarTree(path: root.appendingPathComponent("accounts").path).files),
                       ["accounts/fastmail/family/b.ics", "accounts/nextcloud/personal/a.ics"],
                       "two levels below the folder named, not three")
    }

    /// Evolution: `~/.local/share/evolution/calendar` holds a folder per local source with its
    /// `calendar.ics` (and the backup GIO leaves, `calendar.ics~`).
    func testEvolutionsCalendarFolder() throws {
        try write("evolution/calendar/system/calendar.ics")
        try write("evolution/calendar/system/calendar.ics~")
        try write("evolution/calendar/1697021234.12345.3@laptop/calendar.ics")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("evolution/calendar/trash"), withIntermediateDirectories: true)
        XCTAssertEqual(relative(try CalendarTree(path: root.appendingPathComponent("evolution/calendar").path).files),
                       ["evolution/calendar/1697021234.12345.3@laptop/calendar.ics", "evolution/calendar/system/calendar.ics"])
    }

    /// A single export (Google's per-calendar file, Thunderbird's export) is itself, watched in its folder.
    func testASingleExportedFile() throws {
        try write("Downloads/jane.doe@gmail.com.ics")
        let tree = try CalendarTree(path: root.appendingPathComponent("Downloads/jane.doe@gmail.com.ics").path)
        XCTAssertEqual(relative(tree.files), ["Downloads/jane.doe@gmail.com.ics"])
        XCTAssertEqual(relative(tree.folders), ["Downloads"])
    }

    func testAMissingPathAndTheFolderItWouldBeIn() throws {
        XCTAssertThrowsError(try CalendarTree(path: root.appendingPathComponent("nothing").path)) {
            XCTAssertEqual($0 as? CalendarTree.Failure, .missing)
        }
        XCTAssertEqual(CalendarTree.folder(of: root.appendingPathComponent("nothing").path), root.path)
        XCTAssertEqual(CalendarTree.folder(of: "/calendar.ics"), "/")
        XCTAssertEqual(CalendarTree.folder(of: "calendar.ics"), ".")
    }
}
