@testable import FeedReader
import Foundation
import XCTest

final class FeedDateTests: XCTestCase {
    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testRFC822AsFeedsWriteIt() {
        XCTAssertEqual(FeedDate.rfc822("Mon, 30 Nov 2026 06:00:00 GMT"), utc("2026-11-30T06:00:00Z"))
        XCTAssertEqual(FeedDate.rfc822("30 Nov 2026 07:00 +0100"), utc("2026-11-30T06:00:00Z"))
        XCTAssertEqual(FeedDate.rfc822("Mon, 30 Nov 26 01:00:00 EST"), utc("2026-11-30T06:00:00Z"))
        XCTAssertEqual(FeedDate.rfc822("Mon, 30 November 2026 06:00:00 -0000"), utc("2026-11-30T06:00:00Z"))
        XCTAssertNil(FeedDate.rfc822("yesterday"))
        XCTAssertNil(FeedDate.rfc822("Mon, 30 Nov 2026 25:00:00 GMT"))
        XCTAssertNil(FeedDate.rfc822("Mon, 30 Nov 2026 06:00:00 XYZ"))
    }

    func testRFC3339AsAtomWritesIt() {
        XCTAssertEqual(FeedDate.rfc3339("2026-11-30T06:00:00Z"), utc("2026-11-30T06:00:00Z"))
        XCTAssertEqual(FeedDate.rfc3339("2026-11-30T07:00:00.125+01:00"), utc("2026-11-30T06:00:00Z"))
        XCTAssertEqual(FeedDate.rfc3339(" 2026-11-30t01:00:00-05:00\n"), utc("2026-11-30T06:00:00Z"))
        XCTAssertNil(FeedDate.rfc3339("2026-11-30"))
        XCTAssertNil(FeedDate.rfc3339("2026-11-30T06:00:00+0100x"))
    }

    func testCacheFilesAreNamedStablyByURL() {
        let cache = FeedCache(directory: "/c")
        XCTAssertEqual(cache.path(for: ""), "/c/cbf29ce484222325.xml")
        XCTAssertNotEqual(cache.path(for: "https://a.example/rss"), cache.path(for: "https://b.example/rss"))
    }
}
