import Foundation
import Harnesses
import XCTest

/// Calendars and feeds are read by short-lived processes only: neither the agent nor `screentime`
/// (run by status bars every few seconds) loads libical, libcurl or libxml2; `screentime-reader` does.
final class FeedLinkageTests: XCTestCase {
    func libraries(of binary: URL) throws -> String {
        try HarnessProcesses.process("/usr/bin/ldd", [binary.path], environment: nil).checkedOutput("ldd \(binary.path)")
    }

    func testOnlyTheReaderLinksTheCalendarAndFeedLibraries() throws {
        let cli = AgentProcess.binary
        let folder = cli.deletingLastPathComponent()
        for lean in [folder.appendingPathComponent("screentime-agent"), cli] {
            let libraries = try libraries(of: lean)
            for library in ["libcurl", "libxml2", "libical"] {
                XCTAssertFalse(libraries.contains(library), "\(lean.lastPathComponent) links \(library):\n\(libraries)")
            }
        }
        let readerLibraries = try libraries(of: folder.appendingPathComponent("screentime-reader"))
        XCTAssertTrue(["libcurl", "libxml2", "libical"].allSatisfy(readerLibraries.contains), readerLibraries)
    }
}
