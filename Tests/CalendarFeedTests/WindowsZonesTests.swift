import XCTest
import Foundation
import TestSupport

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
        let committed = try String(contentsOf: root.appendingPathComponent("Sources/CalendarFeed/WindowsZones.swift"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: generated, encoding: .utf8), committed)
        XCTAssertTrue(committed.contains("\"Pacific Standard Time\": \"America/Los_Angeles\","))
    }
}
