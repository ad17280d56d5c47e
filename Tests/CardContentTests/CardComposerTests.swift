import CardContent
import Foundation
import ScreenTimeCore
import Harnesses
import SyncFolder
import UsageStore
import XCTest

/// Each occasion's card from a config file, desktop entries and a real SQLite store with recorded
/// intervals, at a fixed instant in a fixed zone (UTC+1), printed with `CardText` and compared
/// with `Golden/`. SCREENTIME_UPDATE_GOLDEN=1 rewrites the golden files.
final class CardComposerTests: XCTestCase {
    var root: URL!
    var environment: [String: String] = [:]
    let zone = FixedOffsetZone(seconds: 3600)
    /// Monday 2026-11-30, 10:35 local.
    let now = Date(timeIntervalSince1970: 1_796_031_300)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("composer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("share/applications"), withIntermediateDirectories: true)
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
        environment = ["HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config", "XDG_DATA_HOME": root.path + "/data",
                       "XDG_DATA_DIRS": root.path + "/share"]
        for (id, name, categories) in [("org.example.Chat", "Chat", "Network;InstantMessaging;"), ("org.example.Maps", "Maps", "Utility;Maps;"),
                                       ("org.example.Clock", "Clocks", "Utility;Clock;"), ("org.example.Books", "Books", "Office;Viewer;"),
                                       ("org.example.Sudoku", "Sudoku", "Game;LogicGame;"), ("org.example.Films", "Films", "AudioVideo;Video;")] {
            try "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(name.lowercased())\nIcon=\(id)\nCategories=\(categories)\n"
                .write(toFile: root.path + "/share/applications/\(id).desktop", atomically: true, encoding: .utf8)
        }
        // Not offered: hidden from menus.
        try "[Desktop Entry]\nType=Application\nName=A Chat Helper\nExec=helper\nNoDisplay=true\nCategories=Chat;\n"
            .write(toFile: root.path + "/share/applications/org.example.Helper.desktop", atomically: true, encoding: .utf8)
    }

    func config(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: root.path + "/config/screentime", withIntermediateDirectories: true)
        try text.write(toFile: root.path + "/config/screentime/config", atomically: true, encoding: .utf8)
    }

    /// Local `day` of November 2026, `HH:MM` → an instant (UTC+1).
    func local(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
        zone.instant(of: CivilDate(year: 2026, month: 11, day: day), at: WallTime(hour: hour, minute: minute))
    }

    /// Firefox's week: nothing Tuesday, 30 min Wednesday, 1 h Thursday, 1 h 30 Friday, 2 h Saturday
    /// and half of a night crossing the 04:00 day start, the other half and 10 min on Sunday,
    /// 1 h 5 min this morning; a day older than the week, and another app, count for nothing.
    func recordWeek() throws {
        let store = try UsageDatabase(path: root.path + "/data/screentime/screentime.db")
        let spans: [(String, Date, Date)] = [
            ("firefox", local(22, 12, 0), local(22, 15, 0)), ("firefox", local(25, 20, 0), local(25, 20, 30)),
            ("firefox", local(26, 9, 0), local(26, 10, 0)), ("firefox", local(27, 9, 0), local(27, 10, 30)),
            ("firefox", local(28, 14, 0), local(28, 16, 0)), ("firefox", local(29, 3, 30), local(29, 4, 30)),
            ("firefox", local(29, 22, 0), local(29, 22, 10)), ("firefox", local(30, 8, 0), local(30, 8, 30)),
            ("firefox", local(30, 10, 0), local(30, 10, 35)), ("org.gnome.Calculator", local(30, 9, 0), local(30, 9, 50)),
        ]
        for (app, start, end) in spans {
            let id = try store.beginInterval(app: AppID(app), title: "", mode: "standard", at: start)
            try store.extendInterval(id, to: end)
        }
    }

    func card(_ request: CardRequest) -> CardDocument {
        CardComposer.document(for: request, environment: environment, zone: zone)
    }

    func assertGolden(_ name: String, _ document: CardDocument, file: StaticString = #filePath, line: UInt = #line) throws {
        let actual = CardText.render(document)
        let golden = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("Golden/\(name).txt")
        if ProcessInfo.processInfo.environment["SCREENTIME_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: golden, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(actual, try String(contentsOf: golden, encoding: .utf8), "golden \(name)", file: file, line: line)
    }

    let firefox = AppInfo(id: AppID("firefox"), name: "Firefox", icon: "firefox", categories: ["Network", "WebBrowser"])
    let films = AppInfo(id: AppID("org.example.Films"), name: "Films", icon: "org.example.Films", categories: ["AudioVideo", "Video"])

    func testLimitCardWithTheWeekByTheConfiguredDayStart() throws {
        try recordWeek()
        let document = card(CardRequest(occasion: .limitReached, mode: .standard, app: firefox, grant: 3600, at: now))
        XCTAssertEqual(document.statistics?.week.map(\.label), ["Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon"])
        XCTAssertEqual(document.statistics?.week.map(\.seconds), [0, 1800, 3600, 5400, 9000, 2400, 3900])
        XCTAssertEqual(document.statistics?.today, 3900)
        XCTAssertEqual(document.buttons.map(\.key), ["continue", "close"])
        XCTAssertEqual(document.buttons.first?.role, .primary)
        try assertGolden("limit", document)

        // A later day start moves the night's first hour to Sunday too.
        try config("[general]\nday-start = 03:00\n")
        let later = card(CardRequest(occasion: .limitReached, mode: .standard, app: firefox, grant: 3600, at: now))
        XCTAssertEqual(later.statistics?.week.map(\.seconds), [0, 1800, 3600, 5400, 7200, 4200, 3900])
    }

    /// Joined to a synced folder, the card's week counts the other computers' time in the app.
    func testTheWeekCountsTheOtherJoinedComputers() throws {
        try recordWeek()
        let folder = root.path + "/Sync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SyncMembership(folder: folder, device: SyncDeviceID("00000000000000aa")!, name: "laptop").save(environment: environment)
        var sunday = DeviceDay(device: SyncDeviceID("00000000000000bb")!, name: "desktop", sequence: 1, written: now,
                               day: CivilDate(year: 2026, month: 11, day: 29))
        sunday.add(20 * 60_000, app: "firefox", groups: ["browsers"], hour: 10)
        var today = sunday
        today.day = CivilDate(year: 2026, month: 11, day: 30)
        today.apps = [:]
        today.add(5 * 60_000, app: "firefox", groups: ["browsers"], hour: 2)
        try SyncFolder(root: folder).write(sunday)
        try SyncFolder(root: folder).write(today)
        let document = card(CardRequest(occasion: .limitReached, mode: .standard, app: firefox, grant: 3600, at: now))
        XCTAssertEqual(document.statistics?.week.map(\.seconds), [0, 1800, 3600, 5400, 9000, 2400 + 1200, 3900 + 300])
        XCTAssertEqual(document.statistics?.today, 4200)
    }

    func testNoStoreYetMeansNoStatistics() throws {
        let document = card(CardRequest(occasion: .limitReached, mode: .standard, app: firefox, grant: 1800, at: now))
        XCTAssertNil(document.statistics)
        XCTAssertEqual(document.buttons.first?.label, "Continue for 30 minutes")
    }

    func testProductivityShowsTheNextBreakAndTheToDoList() throws {
        try recordWeek()
        try "(B) Call the dentist\nx Pay rent\nWater the plants\n(A) Send the invoice due:2026-11-30\n- Six\n- Seven\n- Eight\n"
            .write(toFile: root.path + "/todo.txt", atomically: true, encoding: .utf8)
        try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//screentime tests//EN\r
            BEGIN:VEVENT\r\nUID:1\r\nDTSTART:20261130T080000Z\r\nDTEND:20261130T081500Z\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:2\r\nDTSTART:20261130T093000Z\r\nDTEND:20261130T100000Z\r\nSUMMARY:Focus time\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:3\r\nDTSTART:20261130T103000Z\r\nDTEND:20261130T110000Z\r\nSUMMARY:Design review\r\nLOCATION:Room 4\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:4\r\nDTSTART;VALUE=DATE:20261130\r\nDTEND;VALUE=DATE:20261201\r\nSUMMARY:Lisa's birthday\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:5\r\nDTSTART:20261130T130000Z\r\nDTEND:20261130T134500Z\r\nSUMMARY:Dentist\r\nEND:VEVENT\r
            END:VCALENDAR\r

            """.write(toFile: root.path + "/work.ics", atomically: true, encoding: .utf8)
        try config("[productivity]\ntodo = ~/todo.txt\n[calendars]\npaths = \(root.path)/work.ics\n")
        let document = card(CardRequest(occasion: .notAllowed, mode: .productivity, app: films, grant: 180,
                                        nextBreakAt: local(30, 11, 0), at: now))
        XCTAssertEqual(document.buttons.map(\.label), ["3 more minutes", "Close"])
        XCTAssertEqual(document.sections.map(\.title), ["Next break", "Next events", "To do"])
        XCTAssertEqual(document.sections[1].items, ["All day: Lisa's birthday", "10:30–11:00 Focus time", "11:30–12:00 Design review, Room 4"])
        try assertGolden("productivity", document)

        let unlocked = card(CardRequest(occasion: .unlocked, mode: .productivity, nextBreakAt: local(30, 11, 0), at: now))
        XCTAssertNil(unlocked.statistics)
        XCTAssertEqual(unlocked.buttons.map(\.key), ["close"])
        XCTAssertEqual(unlocked.sections.map(\.title), ["Next break", "Next events", "To do"])
    }

    func testCalendarsAndAToDoFileThatCannotBeReadAreNamed() throws {
        try config("[productivity]\ntodo = /nowhere/todo.txt\n[calendars]\npaths = /nowhere/work.ics\n")
        let document = card(CardRequest(occasion: .unlocked, mode: .productivity, at: now))
        XCTAssertEqual(document.sections.map(\.title), ["Next events", "To do"])
        XCTAssertEqual(document.sections.map(\.items), [[], []])
        XCTAssertTrue(document.sections[0].note?.contains("/nowhere/work.ics") == true, "\(document.sections[0])")
        XCTAssertEqual(document.sections[1].note, "/nowhere/todo.txt cannot be read.")
    }

    func testSocialQuickNavigationFromTheUsersListOrTheInstalledApps() throws {
        try config("[social]\nquick-nav = org.example.Maps;org.example.Missing;https://www.example.org/friends/\n")
        let chosen = card(CardRequest(occasion: .notAllowed, mode: .social, app: films, grant: 900, at: now))
        XCTAssertEqual(chosen.buttons.map(\.key), ["launch:org.example.Maps", "launch:https://www.example.org/friends/", "continue", "close"])
        XCTAssertEqual(chosen.buttons.map(\.launch), [.desktopEntry("org.example.Maps"), .uri("https://www.example.org/friends/"), nil, nil])
        try assertGolden("social", chosen)

        try config("")
        let installed = card(CardRequest(occasion: .unlocked, mode: .social, at: now))
        XCTAssertEqual(installed.buttons.map(\.label), ["Chat", "Maps", "Close"])
    }

    func testWindDownOffersCalmAlternativesBedAndStayingUp() throws {
        try config("[wind-down]\nalternatives = org.example.Books;https://www.youtube.com/@3blue1brown/;~/Books/The Hobbit.epub\n")
        let document = card(CardRequest(occasion: .notAllowed, mode: .windDown, app: films, grant: 900, at: now))
        XCTAssertEqual(document.buttons.map(\.key), ["launch:org.example.Books", "launch:https://www.youtube.com/@3blue1brown/",
                                                     "launch:\(root.path)/Books/The Hobbit.epub", "bedtime", "stay-up", "continue", "close"])
        XCTAssertEqual(document.buttons.filter { $0.role == .primary }.map(\.key), ["bedtime"])
        try assertGolden("wind-down", document)

        try config("")
        XCTAssertEqual(card(CardRequest(occasion: .notAllowed, mode: .windDown, app: films, grant: 900, at: now)).buttons.map(\.label),
                       ["Sudoku", "Go to bed", "Stay up", "15 more minutes", "Close"])
    }

    func testAModeCardThatMayEndTheModeSaysSoAndOffersIt() throws {
        try config("")
        var request = CardRequest(occasion: .notAllowed, mode: .windDown, app: films, grant: 900, at: now)
        request.leave = "Wind Down holds until 23:00 (30 min left). End Wind Down now? It is recorded as a continue."
        let document = card(request)
        XCTAssertEqual(document.buttons.map(\.label), ["Sudoku", "Go to bed", "Stay up", "15 more minutes", "End Wind Down now", "Close"])
        XCTAssertEqual(document.buttons.first { $0.label == "End Wind Down now" }?.key, CardChoice.leaveMode)
        XCTAssertEqual(document.buttons.filter { $0.role == .primary }.map(\.key), ["bedtime"], "ending is offered, never the default")
        XCTAssertEqual(document.sections.last?.title, "Leaving early")
        XCTAssertEqual(document.sections.last?.items, [try XCTUnwrap(request.leave)])
        let decoded = try JSONDecoder().decode(CardRequest.self, from: JSONEncoder().encode(request))
        XCTAssertEqual(decoded.leave, request.leave, "the offer reaches the card process")
    }

    func testSleepShortcutsMusicMessagesAndTheClock() throws {
        try config("[sleep]\nmusic = ~/Music/sleep.m3u\n")
        let document = card(CardRequest(occasion: .unlocked, mode: .sleep, at: now))
        XCTAssertEqual(document.buttons.map(\.launch), [.music(root.path + "/Music/sleep.m3u"), .desktopEntry("org.example.Chat"),
                                                       .desktopEntry("org.example.Clock"), nil])
        try assertGolden("sleep", document)
    }

    func testWakeUpMorningReminderAndStartingTheDay() throws {
        let document = card(CardRequest(occasion: .notAllowed, mode: .wakeUp, app: films, grant: 900, at: now))
        XCTAssertEqual(document.buttons.map(\.key), ["start-day", "continue", "close"])
        try assertGolden("wake-up", document)
    }

    /// At unlock in Wake Up, and at the morning's first activity, the card is the run-down (`Rundown`).
    func testWakeUpAtUnlockIsTheRundown() throws {
        try recordWeek()
        try "Water the plants due:2026-11-30\nLater due:2026-12-24\n".write(toFile: root.path + "/todo.txt", atomically: true, encoding: .utf8)
        try config("[productivity]\ntodo = ~/todo.txt\n")
        for occasion in [CardRequest.Occasion.unlocked, .rundown] {
            let document = card(CardRequest(occasion: occasion, mode: .wakeUp, at: now))
            XCTAssertEqual(document.title, "Good morning")
            XCTAssertEqual(document.buttons.map(\.key), ["start-day", "close"])
            XCTAssertEqual(document.sections.first { $0.title == "Reminders" }?.items, ["Water the plants"])
        }
    }

    /// During a break the break's own answer: the activity and when the break ends.
    func testAnAppOpenedDuringABreak() throws {
        let document = card(CardRequest(occasion: .notAllowed, mode: .productivity, app: films, grant: 180, breakEndsAt: local(30, 10, 40),
                                        activity: "Fetch a glass of water", at: now))
        XCTAssertEqual(document.title, "It is your break: Films can wait")
        XCTAssertEqual(document.sections, [CardSection(title: "Your break", items: ["Fetch a glass of water", "Ends at 10:40"])])
        XCTAssertEqual(document.buttons.map(\.label), ["3 more minutes", "Close"])
    }

    func testABreakSuggestsAnActivityAndSaysWhenItEnds() throws {
        let document = card(CardRequest(occasion: .breakStarted, mode: .productivity, breakEndsAt: local(30, 10, 40),
                                        activity: "Walk to a window and look at something far away", at: now))
        try assertGolden("break", document)
    }

    /// Figures, not assertions: how long composing a card takes with a year of history (20 switches
    /// an hour, 12 hours a day) and the machine's real desktop entries behind the test's.
    func testComposeTimeFigures() throws {
        let store = try UsageDatabase(path: root.path + "/data/screentime/screentime.db")
        let apps = ["firefox", "org.example.Chat", "org.example.Films", "code", "org.gnome.Nautilus"].map { AppID($0) }
        try store.transaction {
            var start = now.addingTimeInterval(-365 * 86_400)
            var index = 0
            while start < now {
                let id = try store.beginInterval(app: apps[index % apps.count], title: "", mode: "standard", at: start)
                try store.extendInterval(id, to: start.addingTimeInterval(150))
                index += 1
                start = start.addingTimeInterval(index % 240 == 0 ? 12 * 3600 : 180)
            }
        }
        environment["XDG_DATA_DIRS"] = root.path + "/share:/usr/local/share:/usr/share"
        for (name, request) in [("limit", CardRequest(occasion: .limitReached, mode: .standard, app: firefox, grant: 3600, at: now)),
                                ("social", CardRequest(occasion: .notAllowed, mode: .social, app: films, grant: 900, at: now))] {
            var times: [Double] = []
            for _ in 0..<20 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = card(request)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print("compose \(name) card, year of history: median \(times[10]) ms, max \(times[19]) ms (20 runs)")
        }
    }
}
