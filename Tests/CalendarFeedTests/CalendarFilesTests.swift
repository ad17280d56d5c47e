import CalendarFeed
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Calendar folders as real clients keep them, read through the reader with libical.
final class CalendarFilesTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var root: URL!
    /// December 2026.
    let december = Date(timeIntervalSince1970: 1_796_083_200)..<Date(timeIntervalSince1970: 1_798_761_600)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("calendar-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
    }

    func utc(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    /// A CalDAV collection synced as one object per event (Nextcloud, DAVx⁵, vdirsyncer): `count`
    /// UID-named files in Europe/Berlin with their VTIMEZONE, every tenth naming Productivity on
    /// day 1 + index/10 of December, 09:00-10:00; the sync client's hidden files beside them.
    func writeCollection(_ folder: URL, count: Int) throws {
        for index in 0..<count {
            let day = String(format: "202612%02dT", 1 + (index / 10) % 30)
            let summary = index % 10 == 0 ? "Productivity: sprint \(index)" : "Meeting \(index)"
            let uid = String(format: "%08X-7E1B-4C2A-9D3F-%012X", index * 7919, index)
            let event = CalendarClientFiles.event(uid: uid, summary: summary, start: ";TZID=Europe/Berlin:\(day)090000",
                                                  end: ";TZID=Europe/Berlin:\(day)100000")
            try CalendarClientFiles.write(CalendarClientFiles.calendar([CalendarClientFiles.berlin, event]),
                                          to: folder.appendingPathComponent("\(uid).ics"))
        }
        try CalendarClientFiles.write("SQLite format 3", to: folder.appendingPathComponent(".sync_4f2a9c0e1b3d.db"))
        try CalendarClientFiles.write("sync log", to: folder.appendingPathComponent(".nextcloudsync.log"))
    }

    /// Hundreds of one-event files, and one recurring event whose moved occurrence (RECURRENCE-ID,
    /// renamed Social) is in the same object, as CalDAV stores it.
    func testAFolderOfOneFilePerEvent() throws {
        let folder = root.appendingPathComponent("nextcloud/personal")
        try writeCollection(folder, count: 300)
        let weekly = CalendarClientFiles.event(uid: "weekly-focus@nextcloud", summary: "Productivity: focus",
                                               start: ";TZID=Europe/Berlin:20261201T140000", end: ";TZID=Europe/Berlin:20261201T150000",
                                               rrule: "FREQ=WEEKLY;COUNT=4")
        let moved = CalendarClientFiles.event(uid: "weekly-focus@nextcloud", summary: "Social: call", start: ";TZID=Europe/Berlin:20261208T160000",
                                              end: ";TZID=Europe/Berlin:20261208T170000", recurrenceID: ";TZID=Europe/Berlin:20261208T140000")
        try CalendarClientFiles.write(CalendarClientFiles.calendar([CalendarClientFiles.berlin, weekly, moved]),
                                      to: folder.appendingPathComponent("weekly-focus@nextcloud.ics"))

        let result = CalendarReader(zone: zone).read(paths: [root.appendingPathComponent("nextcloud").path], range: december)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.filter { $0.summary.hasPrefix("Productivity: sprint") }.count, 30)
        XCTAssertEqual(result.intervals.first, CalendarInterval(mode: .productivity, start: utc("2026-12-01T08:00:00Z"), end: utc("2026-12-01T09:00:00Z"),
                                                                summary: "Productivity: sprint 0", source: folder.path + "/00000000-7E1B-4C2A-9D3F-000000000000.ics"))
        XCTAssertEqual(result.intervals.filter { $0.source.hasSuffix("weekly-focus@nextcloud.ics") }.map { "\($0.mode) \($0.start)" }, [
            "productivity 2026-12-01 13:00:00 +0000", "social 2026-12-08 15:00:00 +0000",
            "productivity 2026-12-15 13:00:00 +0000", "productivity 2026-12-22 13:00:00 +0000",
        ])
    }

    /// Evolution's calendar folder (a local source per folder) and a Google export file, read together.
    func testEvolutionsSourcesAndAnExportedFile() throws {
        let evolution = root.appendingPathComponent(".local/share/evolution/calendar")
        let evolutionEvent = CalendarClientFiles.event(uid: "20261120T101010Z-1234-1000-1-0@laptop", summary: "Wind Down: read",
                                                       start: ";TZID=/freeassociation.sourceforge.net/Europe/Berlin:20261203T210000",
                                                       end: ";TZID=/freeassociation.sourceforge.net/Europe/Berlin:20261203T220000")
        let evolutionZone = CalendarClientFiles.berlin.replacingOccurrences(of: "TZID:Europe/Berlin", with: "TZID:/freeassociation.sourceforge.net/Europe/Berlin")
        try CalendarClientFiles.write(CalendarClientFiles.calendar([evolutionZone, evolutionEvent], prodID: "-//Ximian//NONSGML Evolution Calendar//EN"),
                                      to: evolution.appendingPathComponent("system/calendar.ics"))
        try CalendarClientFiles.write(CalendarClientFiles.calendar([CalendarClientFiles.event(uid: "gym@laptop", summary: "Gym", start: ":20261204T170000Z", end: ":20261204T180000Z", categories: "Social")],
                                                                   prodID: "-//Ximian//NONSGML Evolution Calendar//EN"),
                                      to: evolution.appendingPathComponent("1697021234.12345.3@laptop/calendar.ics"))
        let export = root.appendingPathComponent("Downloads/jane.doe@gmail.com.ics")
        try CalendarClientFiles.write(CalendarClientFiles.calendar([
            "X-WR-CALNAME:Jane Doe", "X-WR-TIMEZONE:Europe/Berlin",
            CalendarClientFiles.event(uid: "7kq1v0c2@google.com", summary: "Productivity", start: ":20261207T080000Z", end: ":20261207T120000Z"),
            CalendarClientFiles.event(uid: "3ra8d1f4@google.com", summary: "Dentist", start: ":20261207T130000Z", end: ":20261207T140000Z"),
        ], prodID: "-//Google Inc//Google Calendar 70.9054//EN"), to: export)

        let result = CalendarReader(zone: zone).read(paths: [evolution.path, export.path], range: december)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.map { "\($0.mode) \($0.start) \($0.source.dropFirst(root.path.count))" }, [
            "windDown 2026-12-03 20:00:00 +0000 /.local/share/evolution/calendar/system/calendar.ics",
            "social 2026-12-04 17:00:00 +0000 /.local/share/evolution/calendar/1697021234.12345.3@laptop/calendar.ics",
            "productivity 2026-12-07 08:00:00 +0000 /Downloads/jane.doe@gmail.com.ics",
        ])
    }

    /// Benchmark (printed, not asserted): a collection of 2000 one-event files read whole.
    func testReadingTwoThousandFilesPrintsItsTime() throws {
        let folder = root.appendingPathComponent("collection")
        try writeCollection(folder, count: 2000)
        let reader = CalendarReader(zone: zone)
        let started = ContinuousClock.now
        let result = reader.read(paths: [folder.path], range: december)
        let took = started.duration(to: .now)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.intervals.count, 200)
        print("2000 one-event files (\(try FileManager.default.contentsOfDirectory(atPath: folder.path).count) entries) read in "
              + "\(Int(took / .milliseconds(1))) ms")
    }
}
