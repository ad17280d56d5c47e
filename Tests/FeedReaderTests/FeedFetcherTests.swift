import FeedReader
import Foundation
import Harnesses
import XCTest

/// Real libcurl against local files and real sockets on 127.0.0.1.
final class FeedFetcherTests: XCTestCase {
    var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "feeds-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(atPath: folder!) }
    }

    func file(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        return "file://" + folder + "/" + name
    }

    func testFilesAndHTTPAllAtOnceAHangingServerCostsItsTimeout() throws {
        let good = try file("news.xml", FeedFixtures.rss)
        let answering = try LocalHTTPServer(.answer(status: "200 OK", body: FeedFixtures.atom))
        let missing = try LocalHTTPServer(.answer(status: "404 Not Found", body: "no"))
        let hanging = try LocalHTTPServer(.silent)
        let hanging2 = try LocalHTTPServer(.silent)
        let started = Date()
        let results = FeedFetcher.fetch([good, answering.url, hanging.url, missing.url, "file://" + folder + "/none.xml", hanging2.url],
                                        timeout: 1)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(try results[0].get(), Array(FeedFixtures.rss.utf8))
        XCTAssertEqual(try results[1].get(), Array(FeedFixtures.atom.utf8))
        XCTAssertEqual(message(results[2]), "no answer within 1 s")
        XCTAssertEqual(message(results[3]), "the server answered HTTP 404")
        XCTAssertEqual(message(results[4]), "couldn't read a file:// file")
        XCTAssertEqual(message(results[5]), "no answer within 1 s")
        // Two hanging servers in parallel: one timeout, not two.
        XCTAssertLessThan(elapsed, 1.9, "took \(elapsed) s")
        print("fetched 6 feeds, two hanging, in \(String(format: "%.2f", elapsed)) s with a 1 s timeout")
    }

    func message(_ result: Result<[UInt8], FeedFetchError>) -> String? {
        guard case .failure(let error) = result else { return nil }
        return error.message
    }

    func testOtherSchemesAreRefused() {
        let results = FeedFetcher.fetch(["ftp://127.0.0.1/feed", "gopher://127.0.0.1/"], timeout: 1)
        for result in results {
            guard case .failure(let error) = result else { return XCTFail("fetched \(result)") }
            XCTAssertTrue(error.message.contains("protocol"), error.message)
        }
    }

    /// A server cannot send the fetcher to a local file: redirects go to http and https only.
    func testARedirectToAFileIsRefusedAndOneToHTTPFollowed() throws {
        let secret = try file("secret.xml", FeedFixtures.rss)
        let target = try LocalHTTPServer(.answer(status: "200 OK", body: FeedFixtures.atom))
        let toFile = try LocalHTTPServer(.answer(status: "302 Found", body: "", headers: ["Location: \(secret)"]))
        let toHTTP = try LocalHTTPServer(.answer(status: "301 Moved Permanently", body: "", headers: ["Location: \(target.url)"]))
        let results = FeedFetcher.fetch([toFile.url, toHTTP.url], timeout: 1)
        XCTAssertNotNil(message(results[0]))
        XCTAssertEqual(try results[1].get(), Array(FeedFixtures.atom.utf8))
    }

    func testTheCacheStandsInForAFeedThatCannotBeFetched() throws {
        let cache = FeedCache(directory: folder + "/cache")
        let server = try LocalHTTPServer(.answer(status: "200 OK", body: FeedFixtures.rss))
        let morning = Date(timeIntervalSince1970: 1_796_014_800)
        let fresh = FeedSource.read([server.url], timeout: 1, cache: cache, now: morning)
        XCTAssertEqual(fresh.first?.feed?.title, "Morning News")
        XCTAssertNil(fresh.first?.problem)
        server.stop()

        let hanging = try LocalHTTPServer(.silent)
        // The same URL, now hanging: the cache is keyed by URL, so write the copy under the hanging one's.
        cache.store(Array(FeedFixtures.rss.utf8), for: hanging.url, fetched: morning)
        let later = FeedSource.read([hanging.url, try file("broken.xml", FeedFixtures.malformed)], timeout: 1, cache: cache,
                                    now: morning.addingTimeInterval(3 * 3600 + 100))
        XCTAssertEqual(later[0].feed?.title, "Morning News")
        XCTAssertEqual(later[0].note(label: "news", now: morning.addingTimeInterval(3 * 3600 + 100)),
                       "news: no answer within 1 s; the copy from 3 h ago")
        XCTAssertNil(later[1].feed)
        XCTAssertNil(later[1].copyFetched)
        XCTAssertTrue(later[1].problem?.hasPrefix("malformed XML at line 4") == true, later[1].problem ?? "")
    }

    /// Issue 19: the timeout bounds the fetch, and the parse is bounded by the feed's size, so a
    /// hostile feed served over HTTP costs well under its timeout and its note says what was left out.
    func testAHostileFeedCostsLessThanItsTimeoutAndIsNamed() throws {
        let server = try LocalHTTPServer(.answer(status: "200 OK", body: HostileFeeds.entityInAttribute()))
        let started = ContinuousClock.now
        let reports = FeedSource.read([server.url], timeout: 3, cache: FeedCache(directory: folder + "/cache"), now: Date())
        let elapsed = ContinuousClock.now - started
        XCTAssertLessThan(elapsed, .seconds(3), "read in \(elapsed)")
        XCTAssertEqual(reports.first?.feed?.items.map(\.title), ["Episode"])
        XCTAssertEqual(reports.first?.note(label: "pod", now: Date()), "pod: 20000 references to the feed's own entities left out")
    }
}
