import Foundation
import XCTest

/// A fresh directory under the system temp dir, removed when the test ends.
func makeTemporaryDirectory(for test: XCTestCase) throws -> String {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("screentime-store-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url.path
}

/// A date at a whole number of seconds from a fixed origin, so expected sums are exact.
func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_750_000_000 + seconds) }
