import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// `screentime rundown` from the built binary: a calendar, a to-do file, local feeds (and one that
/// hangs, one malformed), a recorded history and held notifications, at a fixed moment in Berlin.
extension CLIGoldenTests {
    /// 2026-11-30 07:30 in Berlin (06:30 UTC), a Monday.
    static let rundownMorning: TimeInterval = 1_796_020_200

    func writeFile(_ path: String, _ text: String) throws {
        let url = home.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func writeRundownFixtures(feeds: [String], timeout: String = "1s") throws {
        try writeFile("calendars/work/team.ics", """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//screentime tests//EN\r
            BEGIN:VEVENT\r
            UID:standup@example\r
            DTSTART;TZID=Europe/Berlin:20261102T093000\r
            DURATION:PT15M\r
            RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r
            SUMMARY:Stand-up\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:review@example\r
            DTSTART;TZID=America/New_York:20261130T080000\r
            DTEND;TZID=America/New_York:20261130T090000\r
            SUMMARY:Design review\r
            LOCATION:Room 4\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:early@example\r
            DTSTART:20261130T050000Z\r
            DTEND:20261130T060000Z\r
            SUMMARY:Over before the run-down\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:tomorrow@example\r
            DTSTART:20261201T090000Z\r
            DTEND:20261201T100000Z\r
            SUMMARY:Tomorrow's meeting\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try writeFile("calendars/home.ics", """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//screentime tests//EN\r
            BEGIN:VEVENT\r
            UID:birthday@example\r
            DTSTART;VALUE=DATE:20261130\r
            DTEND;VALUE=DATE:20261201\r
            SUMMARY:Ada's birthday\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try writeFile("todo.txt", """
            x 2026-11-29 (A) Send the invoice due:2026-11-29
            (A) Renew the library card due:2026-11-28
            (B) Call the dentist due:2026-11-30 +health
            Water the plants due:2026-12-02
            Read chapter 3

            """)
        try writeFile("feeds/news.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Morning News</title>
            <item><title>Rivers &amp; lakes are clean again</title><pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>
            <item><title>Library opens late</title><pubDate>Mon, 30 Nov 2026 06:00:00 GMT</pubDate></item>
            <item><title>Oldest story</title><pubDate>Sun, 29 Nov 2026 20:00:00 GMT</pubDate></item>
            <item><title>Train timetable changes</title><pubDate>Mon, 30 Nov 2026 04:00:00 GMT</pubDate></item>
            </channel></rss>
            """)
        try writeFile("feeds/science.atom", """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Science Weekly</title>
            <entry><title>Bees can count</title><link href="https://science.example/bees"/><updated>2026-11-30T06:00:00Z</updated></entry>
            </feed>
            """)
        try writeFile("feeds/radio.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Slow Radio</title>
            <item><title>Episode 41: Rain</title><enclosure url="https://radio.example/41.mp3" type="audio/mpeg" length="1"/>
              <pubDate>Sat, 28 Nov 2026 06:00:00 +0000</pubDate></item>
            <item><title>Episode 42: Wind</title><enclosure url="https://radio.example/42.mp3" type="audio/mpeg" length="1"/>
              <pubDate>Sun, 29 Nov 2026 06:00:00 +0000</pubDate></item>
            </channel></rss>
            """)
        try writeFile("feeds/broken.xml", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\">\n<channel><title>Broken</title>\n<item><title>Unclosed</item>\n</channel></rss>\n")
        try writeFile(".config/screentime/config", """
            [calendars]
            paths = \(home.path)/calendars/work;\(home.path)/calendars/home.ics

            [productivity]
            todo = ~/todo.txt

            [rundown]
            feeds = \(feeds.joined(separator: ";"))
            feed-timeout = \(timeout)

            """)
        try writeFile("share/applications/signal-desktop.desktop", "[Desktop Entry]\nType=Application\nName=Signal\nExec=signal-desktop\n")
        try writeFile("share/applications/org.mozilla.Thunderbird.desktop", "[Desktop Entry]\nType=Application\nName=Thunderbird\nExec=thunderbird\n")
    }

    /// Two weeks of mornings and a night with held notifications, written as the agent writes them.
    func recordMornings() throws {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        let morning = Date(timeIntervalSince1970: Self.rundownMorning)
        func interval(_ app: AppID, daysAgo: Int, hour: Double, minutes: Double) throws {
            // 07:30 Berlin minus the days, then the hour's offset from 07:30.
            let start = morning.addingTimeInterval(Double(-daysAgo * 86_400) + (hour - 7.5) * 3600)
            let id = try store.beginInterval(app: app, title: "t", mode: "standard", at: start)
            try store.extendInterval(id, to: start.addingTimeInterval(minutes * 60))
        }
        for day in 1...14 {
            try interval("org.mozilla.Thunderbird", daysAgo: day, hour: 7, minutes: 10)
            if day % 3 != 0 { try interval("firefox", daysAgo: day, hour: 8, minutes: 20) }
            if day <= 4 { try interval("signal-desktop", daysAgo: day, hour: 7.2, minutes: 5) }
            try interval("steam", daysAgo: day, hour: 9.5, minutes: 60)
        }
        let night = morning.addingTimeInterval(-9.5 * 3600) // 22:00
        try store.recordModeChange(mode: "standard", reason: "schedule", at: night.addingTimeInterval(-10 * 3600))
        try store.recordModeChange(mode: "wind-down", reason: "schedule", at: night)
        try store.recordModeChange(mode: "sleep", reason: "schedule", at: night.addingTimeInterval(3600))
        try store.recordModeChange(mode: "wake-up", reason: "schedule", at: morning.addingTimeInterval(-1800))
        for minutes in [30, 200, 400] { try store.recordHeldNotification(app: "signal-desktop", at: night.addingTimeInterval(Double(minutes) * 60)) }
        try store.recordHeldNotification(app: "org.mozilla.Thunderbird", at: night.addingTimeInterval(500 * 60))
        // Before the evening's Wind Down: not overnight.
        try store.recordHeldNotification(app: "org.mozilla.Thunderbird", at: night.addingTimeInterval(-600))
    }

    func runRundown(at seconds: TimeInterval, _ extra: [String] = []) throws -> (status: Int32, out: String, err: String, elapsed: TimeInterval) {
        environment["TZ"] = "Europe/Berlin"
        environment["SCREENTIME_NOW"] = String(Int(seconds))
        let started = Date()
        let result = try run(["rundown"] + extra)
        return (result.status, result.out.replacingOccurrences(of: home.path, with: "$HOME"), result.err, Date().timeIntervalSince(started))
    }

    func testRundownFromCalendarsTodosFeedsAndHistory() throws {
        let hanging = try LocalHTTPServer(.silent)
        let feeds = home.appendingPathComponent("feeds").path
        try writeRundownFixtures(feeds: ["file://\(feeds)/news.xml", "file://\(feeds)/science.atom", hanging.url,
                                         "file://\(feeds)/radio.xml", "file://\(feeds)/broken.xml"])
        try recordMornings()
        let result = try runRundown(at: Self.rundownMorning)
        XCTAssertEqual(result.status, 0, result.err)
        try assertGolden("rundown.txt", result.out.replacingOccurrences(of: String(hanging.port), with: "PORT"))
        // The hanging feed costs its timeout (1 s), once, beside everything else.
        XCTAssertLessThan(result.elapsed, 2.5, "the run-down took \(result.elapsed) s")
        print("screentime rundown with a hanging feed (timeout 1 s): \(String(format: "%.2f", result.elapsed)) s")

        // Two hours later, offline: the news comes from the cache, said so with its age.
        try FileManager.default.removeItem(atPath: feeds + "/news.xml")
        let later = try runRundown(at: Self.rundownMorning + 2 * 3600)
        XCTAssertTrue(later.out.contains("  - Library opens late — Morning News\n"), later.out)
        XCTAssertTrue(later.out.contains("  news.xml: couldn't read a file:// file; the copy from 2 h ago\n"), later.out)

        let json = try runRundown(at: Self.rundownMorning, ["--json"])
        let document = try JSONDecoder().decode(CardDocument.self, from: Data(json.out.utf8))
        XCTAssertEqual(document.buttons.first, CardButton(key: CardChoice.startDay, label: "Start the day", role: .primary))
        XCTAssertEqual(document.sections.map(\.title), ["Today", "Reminders", "Top stories", "Podcasts", "Overnight", "Your usual morning apps"])
    }

    /// Issue 19: a feed whose entity was expanded again on every read of an attribute held the
    /// run-down past 400 s with a 3 s timeout. The whole run-down now ends within its timeout.
    func testRundownWithAHostileFeedEndsWithinItsTimeout() throws {
        try writeFile("feeds/entities.xml", HostileFeeds.entityInAttribute())
        try writeRundownFixtures(feeds: ["file://\(home.path)/feeds/entities.xml"], timeout: "3s")
        let result = try runRundown(at: Self.rundownMorning)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("  - Episode — Entities\n  entities.xml: 20000 references to the feed's own entities left out\n"),
                      result.out)
        XCTAssertLessThan(result.elapsed, 3, "the run-down took \(result.elapsed) s")
    }

    func testRundownWithNothingSetUp() throws {
        let result = try runRundown(at: Self.rundownMorning)
        XCTAssertEqual(result.status, 0, result.err)
        try assertGolden("rundown-empty.txt", result.out)
        XCTAssertEqual(try run(["rundown", "--help"]).out, """
            The morning run-down: events, reminders, stories, overnight, usual apps

            Usage:
              screentime rundown [--json]

            SCREENTIME_NOW=SECONDS (since 1970) shows the run-down of that moment instead of now (for tests).
            Feeds are fetched now, each within [rundown] feed-timeout, and kept in $XDG_CACHE_HOME/screentime/feeds.

            """)
        environment["SCREENTIME_NOW"] = "soon"
        XCTAssertEqual(try run(["rundown"]).status, 64)
        // A broken config is named with its line, not shown as the defaults.
        environment["SCREENTIME_NOW"] = String(Int(Self.rundownMorning))
        try writeFile(".config/screentime/config", "[rundown]\nfeed-timeout = forever\n")
        let broken = try run(["rundown"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.err.hasPrefix("screentime rundown: \(home.path)/.config/screentime/config:2: "), broken.err)
    }
}
