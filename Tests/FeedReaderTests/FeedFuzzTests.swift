import FeedReader
import Foundation
import Harnesses
import XCTest

/// Mutated RSS and Atom through the real libxml2 parser (issue 19): nothing traps, each feed is
/// read or refused with words, each within a bounded time. Seeded (`SCREENTIME_SEEDS` replays),
/// bounded in count and time; every input is written here.
final class FeedFuzzTests: XCTestCase {
    static let casesPerSeed = 500

    /// What hostile or broken feeds carry: declarations and references of entities, nesting,
    /// character references out of range, encodings, comments and CDATA left open.
    static let pieces = [
        "<!DOCTYPE rss [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>",
        "&a;", "&b;", "&c;", "&undefined;", "&amp;", "&#0;", "&#x110000;", "&#65;", "<![CDATA[", "]]>", "<!--", "-->",
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.1\"?>", "\u{FEFF}", "\u{0}", "\u{1B}]0;x\u{7}",
        "<!ENTITY x SYSTEM \"file:///etc/passwd\">", "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"/etc/passwd\"/>",
        String(repeating: "<a>", count: 300), String(repeating: "</a>", count: 300), "<enclosure url=\"&c;&c;&c;\" type=\"audio/mpeg\"/>",
        "<item><title>t</title></item>", "<entry><title>t</title></entry>", "<title>" + String(repeating: "x", count: 10_000) + "</title>",
        "<pubDate>Mon, 99 Foo 99999 99:99:99 +9999</pubDate>", "<updated>99999-99-99T99:99:99Z</updated>", "\"", "'", "<", ">", "&",
    ]

    static var bases: [String] {
        [FeedFixtures.rss, FeedFixtures.atom, FeedFixtures.podcast, HostileFeeds.entityInAttribute(entityKB: 4, references: 2000)]
    }

    func mutate(_ text: String, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes.insert(contentsOf: Self.pieces.randomElement(using: &random)!.utf8, at: at)
            case 1 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
            case 3 where at < bytes.count:
                // A chunk repeated: a long run of items, attributes or references.
                let chunk = bytes[at..<min(bytes.count, at + Int.random(in: 1...200, using: &random))]
                bytes.insert(contentsOf: Array(repeating: chunk, count: Int.random(in: 2...200, using: &random)).flatMap { $0 }, at: at)
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }

    func testMutatedFeedsAreReadOrRefusedWithinABoundedTime() {
        let started = ContinuousClock.now
        var (read, refused) = (0, 0)
        var slowest: (Duration, String) = (.zero, "")
        for seed in SplitMix64.seeds(count: 3, environment: ProcessInfo.processInfo.environment) {
            var random = SplitMix64(seed: seed)
            for index in 0..<Self.casesPerSeed {
                let base = Self.bases.randomElement(using: &random)!
                let bytes = mutate(base, &random)
                let caseStarted = ContinuousClock.now
                do {
                    let feed = try FeedParser.parse(bytes)
                    read += 1
                    XCTAssertLessThanOrEqual(feed.items.count, FeedParser.itemLimit)
                } catch {
                    refused += 1
                    XCTAssertFalse(error.message.isEmpty, "seed \(seed) case \(index)")
                }
                let elapsed = ContinuousClock.now - caseStarted
                if elapsed > slowest.0 { slowest = (elapsed, "seed \(seed) case \(index), \(bytes.count) bytes") }
                XCTAssertLessThan(elapsed, .seconds(1), "seed \(seed) case \(index) (\(bytes.count) bytes)")
            }
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertGreaterThan(read, 75, "the mutations keep some feeds readable")
        XCTAssertGreaterThan(refused, 75, "and break others")
        XCTAssertLessThan(elapsed, .seconds(30))
        print("feed fuzz: \(read + refused) feeds (\(read) read, \(refused) refused) in \(elapsed); slowest \(slowest.0) (\(slowest.1))")
    }
}
