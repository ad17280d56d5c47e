import Foundation
import XCTest

extension XCTestCase {
    /// Compares `actual` with `Golden/NAME`. Set SCREENTIME_UPDATE_GOLDEN=1 to rewrite the file
    /// after an intended change (and read the diff).
    func assertGolden(_ name: String, _ actual: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let source = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["SCREENTIME_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: source, atomically: true, encoding: .utf8)
        }
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil), "no golden file \(name)")
        XCTAssertEqual(actual, try String(contentsOf: url, encoding: .utf8), "golden \(name)", file: file, line: line)
    }
}

extension XCTestCase {
    /// The zone the tests' environment chose so that it is midday there now (HermeticEnvironment):
    /// a command's words about "today" and "tomorrow, 04:00" do not depend on the hour the suite runs.
    static var middayZone: String { ProcessInfo.processInfo.environment["TZ"] ?? "UTC" }
}
