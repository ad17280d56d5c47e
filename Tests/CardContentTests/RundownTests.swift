import CardContent
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The run-down card (`CardComposer`, occasion `.rundown`) from real files; the CLI's golden test
/// covers a full morning.
final class RundownTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var home: String!
    var now: Date { zone.at("2026-11-30 07:30") }

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "rundown-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home + "/.config/screentime", withIntermediateDirectories: true)
        addTeardownBlock { [home] in try? FileManager.default.removeItem(atPath: home!) }
    }

    func rundown(config: String = "") throws -> CardDocument {
        try config.write(toFile: home + "/.config/screentime/config", atomically: true, encoding: .utf8)
        return CardComposer.document(for: CardRequest(occasion: .rundown, mode: .wakeUp, at: now),
                                     environment: ["HOME": home, "XDG_DATA_DIRS": home + "/share"], zone: zone)
    }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: home + "/" + name, atomically: true, encoding: .utf8)
        return home + "/" + name
    }

    func testNothingSetUpGivesTheDayAndTheChoice() throws {
        let document = try rundown()
        XCTAssertEqual(document.title, "Good morning")
        XCTAssertEqual(document.sections, [CardSection(title: "Today", items: [], note: "No calendars yet: `screentime calendar add PATH` adds one.")])
        XCTAssertEqual(document.buttons.map(\.key), [CardChoice.startDay, CardChoice.close])
        XCTAssertEqual(document.buttons.first?.role, .primary)
    }

    func testRemindersSayWhenNothingIsDueOrTheListCannotBeRead() throws {
        _ = try write("todo.txt", "Someday\nx Done due:2026-11-01\n")
        func section(_ path: String) throws -> CardSection? {
            try rundown(config: "[productivity]\ntodo = \(path)\n").sections.first { $0.title == "Reminders" }
        }
        XCTAssertEqual(try section("~/todo.txt"), CardSection(title: "Reminders", items: [], note: "Nothing due today."))
        XCTAssertEqual(try section("~/gone.txt"), CardSection(title: "Reminders", items: [], note: "\(home!)/gone.txt cannot be read."))
    }

    func testLongListsAreCutAndCounted() throws {
        _ = try write("todo.txt", (1...10).map { "Task \($0) due:2026-11-30" }.joined(separator: "\n"))
        let calendar = try write("hourly.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:h\r\n"
                                 + "DTSTART:20261130T070000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=HOURLY;COUNT=12\r\nSUMMARY:Ping\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let sections = try rundown(config: "[calendars]\npaths = \(calendar)\n[productivity]\ntodo = ~/todo.txt\n").sections
        XCTAssertEqual(sections[0].items.count, 8)
        XCTAssertEqual(sections[0].items.first, "08:00–08:30 Ping")
        XCTAssertEqual(sections[0].note, "4 more today.")
        XCTAssertEqual(sections[1].items.count, 8)
        XCTAssertEqual(sections[1].note, "2 more due.")
    }

    func testAPodcastOnlyGoesUnderPodcastsAndAnEmptyFeedSaysSo() throws {
        let podcast = try write("radio.xml", """
            <rss version="2.0"><channel><title>Slow Radio</title>
            <item><title>Episode 1</title><enclosure url="https://radio.example/1.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """)
        let empty = try write("empty.xml", "<rss version=\"2.0\"><channel><title>Quiet</title></channel></rss>")
        let sections = try rundown(config: "[rundown]\nfeeds = file://\(podcast);file://\(empty)\n").sections
        XCTAssertEqual(sections.dropFirst().map(\.title), ["Top stories", "Podcasts"])
        XCTAssertEqual(sections[1], CardSection(title: "Top stories", items: [], note: "No stories in your feeds."))
        XCTAssertEqual(sections[2], CardSection(title: "Podcasts", items: ["Episode 1 — Slow Radio"]))
        // The good copies are cached by URL.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/.cache/screentime/feeds").count, 2)
    }

    func testAnUnreadableCalendarIsNamed() throws {
        let broken = try write("broken.ics", "not a calendar")
        let today = try rundown(config: "[calendars]\npaths = \(broken)\n").sections[0]
        XCTAssertEqual(today.items, [])
        XCTAssertTrue(today.note?.hasPrefix("\(broken): ") == true, today.note ?? "")
    }

    /// The Wake Up card at unlock (no app) is the run-down.
    func testTheWakeUpCardAtUnlockIsTheRundown() throws {
        _ = try rundown()
        let unlocked = CardComposer.document(for: CardRequest(occasion: .unlocked, mode: .wakeUp, at: now),
                                             environment: ["HOME": home, "XDG_DATA_DIRS": home + "/share"], zone: zone)
        XCTAssertEqual(unlocked.title, "Good morning")
    }
}
