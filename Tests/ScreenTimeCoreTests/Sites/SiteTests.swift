import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// A tab's host name becomes the site screentime counts: one site for `www.`, `m.` and the short
/// links, the registrable domain under multi-label suffixes, and a clear error for anything else.
final class SiteTests: XCTestCase {
    func testHostsFoldToTheirRegistrableDomain() throws {
        let cases: [(String, String)] = [
            ("youtube.com", "youtube.com"), ("www.youtube.com", "youtube.com"), ("m.youtube.com", "youtube.com"),
            ("youtu.be", "youtube.com"), ("WWW.YouTube.COM.", "youtube.com"), ("music.youtube.com", "youtube.com"),
            ("news.bbc.co.uk", "bbc.co.uk"), ("www.bbc.co.uk", "bbc.co.uk"), ("bbc.co.uk", "bbc.co.uk"),
            ("www.amazon.co.jp", "amazon.co.jp"), ("shop.example.com.au", "example.com.au"),
            ("alice.github.io", "alice.github.io"), ("www.alice.github.io", "alice.github.io"),
            ("mobile.twitter.com", "x.com"), ("old.reddit.com", "reddit.com"), ("localhost", "localhost"),
            ("localhost:8080", "localhost"), ("127.0.0.1", "127.0.0.1"), ("docs.example.org:443", "example.org"),
            ("xn--bcher-kva.example", "xn--bcher-kva.example"), ("co.uk", "co.uk"), ("a.b.c.d.e.example.net", "example.net"),
        ]
        for (host, site) in cases {
            XCTAssertEqual(try Site(host: host).domain, site, host)
        }
    }

    func testWhatIsNoHostIsRefusedWithItsReason() {
        let cases: [(String, String)] = [
            ("", "empty"), (".", "empty"), ("a..b", "empty label"), ("exa mple.com", "letters, digits"),
            ("bücher.de", "xn--"), ("-bad.com", "begins or ends"), ("[::1]", "IPv6"), ("host:port", "port"),
            ("999.1.1.1", "IPv4"), ("example.123", "number"), (String(repeating: "a", count: 64) + ".com", "63"),
            (String(repeating: "a.", count: 130) + "com", "253"), ("evil\u{0}.com", "letters, digits"),
        ]
        for (host, reason) in cases {
            XCTAssertThrowsError(try Site(host: host), host) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(host): \(error)")
                XCTAssertTrue("\(error)".contains("is no site"), "\(error)")
            }
        }
    }

    func testStoredNamesAreSitesOnlyInTheirOwnForm() {
        XCTAssertEqual(Site(domain: "youtube.com")?.domain, "youtube.com")
        XCTAssertNil(Site(domain: "www.youtube.com"))
        XCTAssertNil(Site(domain: "youtu.be"))
        XCTAssertNil(Site(domain: "YouTube.com"))
    }

    func testBuiltInGroupsAndTheBrowserForTheRest() {
        let settings = Settings()
        let browser = AppInfo(id: "chromium", name: "Chromium", icon: "chromium", categories: ["Network", "WebBrowser"])
        let youtube = SiteApp.app(try! Site(host: "www.youtube.com"), in: browser)
        XCTAssertEqual(youtube.id, "youtube.com")
        XCTAssertEqual(youtube.icon, "chromium")
        XCTAssertEqual(settings.groups(of: youtube), [.content])
        XCTAssertEqual(settings.limit(for: youtube), settings.defaultLimit)
        let docs = SiteApp.app(try! Site(host: "docs.example.org"), in: browser)
        XCTAssertEqual(settings.groups(of: docs), [.browsers])
        XCTAssertNil(settings.limit(for: docs), "a site of no group has the browser's (no) limit")
        for group in SiteGroup.allCases {
            for domain in group.sites {
                guard let site = Site(domain: domain) else { XCTFail("\(group): \(domain) is not written as Site makes it"); continue }
                XCTAssertEqual(settings.groups(of: SiteApp.app(site, in: browser)), [.content], domain)
            }
        }
        XCTAssertEqual(SiteGroup.of(Site(domain: "reddit.com")!), .social)
        XCTAssertEqual(SiteGroup.of(Site(domain: "ebay.de")!), .shopping)
        XCTAssertEqual(SiteGroup.of(Site(domain: "bbc.co.uk")!), .news)
        // A site is no browser window: the title rules (any browser) leave it alone.
        XCTAssertEqual(settings.titleRules.app(for: docs, title: "Embedding YouTube videos").id, "example.org")
    }

    func testAnAppKnownOnlyByItsIDIsASiteWhenItLooksLikeOne() {
        let settings = Settings()
        XCTAssertEqual(settings.groups(of: SiteApp.known(by: "youtube.com")), [.content], "after a restart, before it is in front again")
        XCTAssertEqual(settings.groups(of: SiteApp.known(by: "example.org")), [.browsers])
        XCTAssertEqual(settings.groups(of: SiteApp.known(by: SiteApp.privateBrowsing)), [.browsers])
        for id: AppID in ["org.kde.kcalc", "st-notes", "org.gnome.Calculator", "firefox"] {
            XCTAssertFalse(SiteApp.isSite(SiteApp.known(by: id)), "\(id) is no site")
        }
        var engine = Engine(settings: settings, zone: FixedOffsetZone(seconds: 0), now: Date(timeIntervalSince1970: 1_800_000_000),
                            usageToday: ["youtube.com": 4000])
        _ = engine.handle(.tick, at: Date(timeIntervalSince1970: 1_800_000_001))
        XCTAssertTrue(engine.isOverLimit("youtube.com", at: Date(timeIntervalSince1970: 1_800_000_001)), "a content site's use today keeps its limit")
    }

    func testUserEditsMoveASite() throws {
        let added = try Settings(KeyFile(parsing: "[groups]\ncontent = example.org\n"), path: "config")
        let browser = AppInfo(id: "firefox-esr", name: "Firefox", categories: ["WebBrowser"])
        XCTAssertEqual(added.groups(of: SiteApp.app(Site(domain: "example.org")!, in: browser)), [.content])
        let removed = try Settings(KeyFile(parsing: "[groups]\ncontent = -youtube.com\n"), path: "config")
        XCTAssertEqual(removed.groups(of: SiteApp.app(Site(domain: "youtube.com")!, in: browser)), [.browsers])
    }

    /// Seeded random host names, near-valid and hostile: every one gives a site or an error,
    /// never a trap, and a site is always a stored name the config can keep.
    func testSeededRandomHostsNeverTrap() {
        let seeds = SplitMix64.seeds(count: 8, environment: ProcessInfo.processInfo.environment)
        let pieces = ["www", "m", "co", "uk", "com", "youtu", "be", "github", "io", "-", "_", "", "1", "255", "xn--p1ai",
                      "ÿ", "\u{0}", ":", "80", "[", "]", " ", "A", "Z", String(repeating: "q", count: 70)]
        var sites = 0
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            for _ in 0..<2000 {
                let count = Int.random(in: 0...8, using: &random)
                let separator = random.next() % 7 == 0 ? "" : "."
                let host = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined(separator: separator)
                do {
                    let site = try Site(host: host)
                    sites += 1
                    XCTAssertNoThrow(try AppID(checking: site.domain), "seed \(seed): \(host)")
                    XCTAssertEqual(try Site(host: site.domain).domain, site.domain, "seed \(seed): folding is stable for \(host)")
                    XCTAssertLessThanOrEqual(site.domain.utf8.count, 253)
                } catch {
                    XCTAssertFalse(error.description.isEmpty)
                }
            }
        }
        print("Site random runs: \(seeds.count * 2000) hosts, \(sites) sites, seeds \(seeds.map(String.init).joined(separator: ","))")
    }
}
