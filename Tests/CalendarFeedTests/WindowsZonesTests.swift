import XCTest
import Foundation
import Harnesses
import CalendarFeed
import ScreenTimeCore

/// The committed Windows zone table is what scripts/generate-windows-zones.sh makes of the CLDR
/// table installed (Debian's unicode-cldr-core, in install-deps.sh --test).
final class WindowsZonesTests: XCTestCase {
    func testTheCommittedTableIsTheGeneratedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generated = NSTemporaryDirectory() + "windows-zones-" + UUID().uuidString + ".swift"
        defer { try? FileManager.default.removeItem(atPath: generated) }
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/generate-windows-zones.sh")
        process.arguments = [generated]
        let run = try process.finishedOutput()
        XCTAssertEqual(run.status, 0, run.err)
        let committed = try String(contentsOf: root.appendingPathComponent("Sources/Readers/CalendarFeed/WindowsZones.swift"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: generated, encoding: .utf8), committed)
        XCTAssertTrue(committed.contains("\"Pacific Standard Time\": \"America/Los_Angeles\","))
    }
}

extension WindowsZonesTests {
    /// Every Windows name of the table places a time as tzdata's zone does, without a VTIMEZONE.
    func testEveryWindowsNamePlacesTimesInItsIANAZone() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let table = try String(contentsOf: root.appendingPathComponent("Sources/Readers/CalendarFeed/WindowsZones.swift"), encoding: .utf8)
        let pairs = table.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "\"")
            return parts.count == 5 && parts[2] == ": " ? (String(parts[1]), String(parts[3])) : nil
        }
        XCTAssertGreaterThan(pairs.count, 130)
        let events = pairs.enumerated().map { index, pair in
            "BEGIN:VEVENT\nUID:\(index)@zones\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=\"\(pair.0)\":20260715T120000\n"
                + "DTEND;TZID=\"\(pair.0)\":20260715T130000\nSUMMARY:Social: \(pair.0)\nEND:VEVENT\n"
        }.joined()
        let path = NSTemporaryDirectory() + "windows-zones-" + UUID().uuidString + ".ics"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//screentime tests//EN\n" + events + "END:VCALENDAR\n")
            .replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let summer = Date(timeIntervalSince1970: 1_783_944_000)..<Date(timeIntervalSince1970: 1_784_376_000) // 13-18 July 2026
        var reader = CalendarReader(zone: FixedOffsetZone(seconds: 0))
        reader.perFileLimit = 1_000
        let result = try reader.readFile(path, range: summer)
        XCTAssertEqual(result.problems, [])
        let starts = Dictionary(result.intervals.map { ($0.summary, $0.start) }, uniquingKeysWith: { first, _ in first })
        for (windows, iana) in pairs {
            let zone = try XCTUnwrap(TimeZone(identifier: iana), iana)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let noon = calendar.date(from: DateComponents(year: 2026, month: 7, day: 15, hour: 12))
            XCTAssertEqual(starts["Social: " + windows], noon, "\(windows) → \(iana)")
        }
    }
}
