import CalendarFeed
import CardContent
import Foundation
import ScreenTimeCore
import TestSupport
import XCTest

/// The run-down's document from real files (the CLI's golden test covers a full morning).
final class RundownTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var home: String!
    var now: Date { zone.at("2026-11-30 07:30") }

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "rundown-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        addTeardownBlock { [home] in try? FileManager.default.removeItem(atPath: home!) }
    }

    func rundown(_ change: (inout Settings) -> Void = { _ in }) -> Rundown {
        var settings = Settings()
        change(&settings)
        return Rundown(settings: settings, zone: zone, environment: ["HOME": home, "XDG_CACHE_HOME": home + "/cache"])
    }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: home + "/" + name, atomically: true, encoding: .utf8)
        return home + "/" + name
    }

    func testNothingSetUpGivesTheDayAndTheChoice() {
        let document = rundown().document(at: now)
        XCTAssertEqual(document.title, "Good morning")
        XCTAssertEqual(document.sections, [CardSection(title: "Today", items: [], note: "No calendars yet: add one with `screentime calendar add PATH`.")])
        XCTAssertEqual(document.buttons.map(\.key), [CardChoice.startDay, CardChoice.close])
        XCTAssertEqual(document.buttons.first?.role, .primary)
    }

    func testRemindersSayWhenNothingIsDueOrTheListCannotBeRead() throws {
        _ = try write("todo.txt", "Someday\nx Done due:2026-11-01\n")
        let section = { (path: String) in self.rundown { $0.content.todoPath = path }.document(at: self.now).sections.first { $0.title == "Reminders" } }
        XCTAssertEqual(section("~/todo.txt"), CardSection(title: "Reminders", items: [], note: "Nothing due today."))
        XCTAssertEqual(section("~/gone.txt"), CardSection(title: "Reminders", items: [], note: "~/gone.txt cannot be read."))
    }

    func testAPodcastOnlyGoesUnderPodcastsAndAnEmptyFeedSaysSo() throws {
        let podcast = try write("radio.xml", """
            <rss version="2.0"><channel><title>Slow Radio</title>
            <item><title>Episode 1</title><enclosure url="https://radio.example/1.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """)
        let empty = try write("empty.xml", "<rss version=\"2.0\"><channel><title>Quiet</title></channel></rss>")
        let sections = rundown { $0.content.feeds = ["file://" + podcast, "file://" + empty] }.document(at: now).sections
        XCTAssertEqual(sections.dropFirst().map(\.title), ["Top stories", "Podcasts"])
        XCTAssertEqual(sections[1], CardSection(title: "Top stories", items: [], note: "No stories in your feeds."))
        XCTAssertEqual(sections[2], CardSection(title: "Podcasts", items: ["Episode 1 — Slow Radio"]))
        // The good copies are cached by URL.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/cache/screentime/feeds").count, 2)
    }

    func testAgendaLinesPlainWithTheDayWhenNotToday() {
        let today = CivilDate(year: 2026, month: 11, day: 30)
        XCTAssertEqual(Agenda.line(AgendaEvent(title: "Review\u{1b}[2J", start: zone.at("2026-12-01 09:00"), end: zone.at("2026-12-01 10:30"),
                                               allDay: false, location: "Room\n4"), zone: zone, today: today),
                       "Tue 09:00–10:30 Review[2J (Room 4)")
        XCTAssertEqual(Agenda.line(AgendaEvent(title: "Holiday", start: zone.at("2026-11-30 00:00"), end: zone.at("2026-12-01 00:00"),
                                               allDay: true), zone: zone, today: today), "All day: Holiday")
    }

    func testAnUnreadableCalendarIsNamed() throws {
        let broken = try write("broken.ics", "not a calendar")
        let section = Agenda.section(title: "Today", settings: { var s = Settings(); s.modes.calendarPaths = [broken]; return s }(),
                                     range: now..<now.addingTimeInterval(3600), zone: zone)
        XCTAssertEqual(section.items, [])
        XCTAssertTrue(section.note?.hasPrefix("Could not read \(broken): ") == true, section.note ?? "")
    }
}
