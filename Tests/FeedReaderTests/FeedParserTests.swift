import FeedReader
import Foundation
import Harnesses
import XCTest

final class FeedParserTests: XCTestCase {
    func parse(_ text: String) throws -> Feed { try FeedParser.parse(Array(text.utf8)) }
    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testRSSItemsDatesAndNewest() throws {
        let feed = try parse(FeedFixtures.rss)
        XCTAssertEqual(feed.title, "Morning News")
        XCTAssertFalse(feed.isPodcast)
        XCTAssertEqual(feed.items.map(\.title), ["Rivers & lakes are clean again", "Library <b>opens</b> late", "Oldest story",
                                                 "Train timetable changes", "Undated note"])
        XCTAssertEqual(feed.items.map(\.published), [utc("2026-11-30T05:00:00Z"), utc("2026-11-30T06:30:00Z"),
                                                     utc("2026-11-30T01:00:00Z"), utc("2026-11-30T04:00:00Z"), nil])
        XCTAssertEqual(feed.items[0].link, "https://news.example/1")
        XCTAssertEqual(feed.newest(3).map(\.title), ["Library <b>opens</b> late", "Rivers & lakes are clean again", "Train timetable changes"])
        XCTAssertEqual(feed.newest(9).last?.title, "Undated note")
    }

    func testAtomEntries() throws {
        let feed = try parse(FeedFixtures.atom)
        XCTAssertEqual(feed.title, "Science Weekly")
        XCTAssertEqual(feed.items, [
            FeedItem(title: "A comet visits", link: "https://science.example/comet", published: utc("2026-11-29T09:00:00Z")),
            FeedItem(title: "Bees can count", link: "https://science.example/bees", published: utc("2026-11-30T06:15:30Z")),
        ])
    }

    func testPodcastEpisodesAreTheItemsWithAnEnclosure() throws {
        let feed = try parse(FeedFixtures.podcast)
        XCTAssertTrue(feed.isPodcast)
        XCTAssertEqual(feed.newest(3).map(\.title), ["Episode 42: Wind", "Episode 41: Rain"])
        XCTAssertEqual(feed.newest(1).first?.enclosure, "https://radio.example/42.mp3")
    }

    func testMalformedAndForeignDocumentsSayWhy() {
        XCTAssertThrowsError(try parse(FeedFixtures.malformed)) { error in
            let message = (error as? FeedParseError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("malformed XML at line 4: "), message)
        }
        XCTAssertThrowsError(try parse("<html><body>Not found</body></html>")) { error in
            XCTAssertEqual((error as? FeedParseError)?.message, "not an RSS or Atom feed (the document is <html>)")
        }
        XCTAssertThrowsError(try parse("")) { error in
            XCTAssertTrue(((error as? FeedParseError)?.message ?? "").hasPrefix("malformed XML"))
        }
    }

    /// An external entity is never loaded: its text does not appear.
    func testExternalEntitiesAreNotLoaded() throws {
        let secret = NSTemporaryDirectory() + "feed-secret-\(UUID().uuidString)"
        try "SECRET".write(toFile: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let text = """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file://\(secret)">]>
            <rss version="2.0"><channel><title>T</title><item><title>a &x; b</title></item></channel></rss>
            """
        let title = (try? parse(text))?.items.first?.title ?? ""
        XCTAssertFalse(title.contains("SECRET"), title)
    }

    /// Issue 19: a 100 KB entity referenced 20,000 times in an enclosure's URL ran past 400 s and
    /// 800 MB (each read of the attribute expanded it again). It is never expanded, and said so.
    func testAnEntityReferencedInAnAttributeIsNeverExpanded() throws {
        let started = ContinuousClock.now
        let feed = try parse(HostileFeeds.entityInAttribute())
        let elapsed = ContinuousClock.now - started
        XCTAssertLessThan(elapsed, .seconds(2), "parsed in \(elapsed)")
        XCTAssertEqual(feed.items.map(\.title), ["Episode"])
        XCTAssertEqual(feed.items.first?.enclosure, "")
        XCTAssertEqual(feed.omitted, "20000 references to the feed's own entities left out")
    }

    /// Entities in text were already left out, silently; now they are named too. Character
    /// references and the five predefined entities are text, and nothing is left out for them.
    func testEntityReferencesInTextAreLeftOutAndCounted() throws {
        let feed = try parse("""
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY brand "Acme">]>
            <rss version="2.0"><channel><title>&brand; news</title>
            <item><title>A &amp; B &#233; &lt;3</title><link>https://x.example/?a=1&amp;b=2</link></item></channel></rss>
            """)
        XCTAssertEqual(feed.title, "news")
        XCTAssertEqual(feed.items.first?.title, "A & B é <3")
        XCTAssertEqual(feed.items.first?.link, "https://x.example/?a=1&b=2")
        XCTAssertEqual(feed.omitted, "1 reference to the feed's own entities left out")
        XCTAssertNil(try parse(FeedFixtures.rss).omitted)
    }

    /// A tree far larger than any feed's is copied only up to `nodeLimit` elements and attributes.
    func testElementsPastTheLimitAreLeftOutAndNamed() throws {
        let started = ContinuousClock.now
        let feed = try parse(HostileFeeds.manyElements(300_000))
        let elapsed = ContinuousClock.now - started
        XCTAssertLessThan(elapsed, .seconds(3), "parsed in \(elapsed)")
        XCTAssertEqual(feed.items.map(\.title), ["Wide item"])
        XCTAssertEqual(feed.omitted, "elements and attributes past the first 100000 left out")
    }

    /// 20,000 attributes on one element took libxml2 4 s (each checked against all before it);
    /// more than `attributeLimit` are refused before libxml2 sees them, at any size.
    func testAnElementWithTooManyAttributesIsRefusedAtOnce() throws {
        let started = ContinuousClock.now
        XCTAssertThrowsError(try parse(HostileFeeds.manyAttributes(500_000))) { error in
            let message = (error as? FeedParseError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("malformed XML: an element with more than 1000 attributes (at byte "), message)
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        XCTAssertEqual(try parse(HostileFeeds.manyAttributes(1000)).items.map(\.title), ["t"])
        // Quotes or comments before the element do not hide its attributes.
        let hidden = "<!-- ' \" -->" + HostileFeeds.manyAttributes(2000)
        XCTAssertThrowsError(try parse(hidden))
    }
}
