import FoundationEssentials
import ScreenTimeCore

/// The desktop days and evenings (a developer, a student, a designer, a gamer; the
/// developer's Productivity morning), run through the real engine and mode resolver with default
/// settings on a virtual clock, the user continuing whenever the app in front is disabled.
public enum DesktopDays {
    public struct Segment: Sendable {
        public var app: AppInfo
        public var title: String
        public var minutes: Double

        public init(app: AppInfo, title: String, minutes: Double) {
            self.app = app
            self.title = title
            self.minutes = minutes
        }
    }

    public struct Day: Sendable {
        public var name: String
        public var segments: [Segment]
        /// The whole day is a Productivity stretch (`screentime mode productivity` until its end).
        public var productivity = false
        /// The apps Productivity must never disable.
        public var workApps: Set<AppID> = []
        /// When the first segment begins.
        public var start = DesktopDays.start
    }

    /// A continue the user chose.
    public struct Continue: Sendable {
        public var at: Date
        public var app: AppID
        public var mode: String
        public var rule: BypassedRule
        public var granted: TimeInterval

        public init(at: Date, app: AppID, mode: String, rule: BypassedRule, granted: TimeInterval) {
            self.at = at
            self.app = app
            self.mode = mode
            self.rule = rule
            self.granted = granted
        }
    }

    public struct Outcome: Sendable {
        public var name: String
        public var ledger: NotificationLedger
        public var continues: [Continue]
        /// Disables of the day's work apps.
        public var workDisables: Int
        public var minutes: Double
    }

    /// Monday 2026-11-30, 09:00 in Central Europe.
    public static let start = Date(timeIntervalSince1970: 1_795_910_400 + 86_400 + 8 * 3600)

    /// That Monday at `hour` (18.5 is 18:30); past 24 the night after it.
    public static func monday(at hour: Double) -> Date { start.addingTimeInterval((hour - 9) * 3600) }

    // Apps with their Debian desktop entries' categories: read from /usr/share/applications when
    // the package is installed here, else as the package ships them.
    public static let editor = debianApp("vim", "Vim", "Utility;TextEditor;")
    public static let terminal = debianApp("debian-xterm", "XTerm", "System;TerminalEmulator;")
    public static let browser = debianApp("firefox-esr", "Firefox ESR", "Network;WebBrowser;")
    public static let chat = debianApp("hexchat", "HexChat", "GTK;Network;IRCClient;")
    public static let office = debianApp("libreoffice-writer", "LibreOffice Writer", "Office;WordProcessor;X-Red-Hat-Base;")
    public static let game = debianApp("supertux2", "SuperTux 2", "Game;ArcadeGame;")
    public static let graphics = debianApp("gimp", "GNU Image Manipulation Program", "Graphics;2DGraphics;RasterGraphics;GTK;")
    public static let music = debianApp("rhythmbox", "Rhythmbox", "GNOME;GTK;AudioVideo;Audio;Player;")
    /// A game store (Debian's steam-installer).
    public static let store = debianApp("steam", "Steam", "Network;FileTransfer;Game;")

    static func debianApp(_ id: String, _ name: String, _ categories: String) -> AppInfo {
        let path = "/usr/share/applications/\(id).desktop"
        if let data = FileManager.default.contents(atPath: path),
           let entry = DesktopEntry(id: id, text: String(decoding: data, as: UTF8.self)) {
            return AppInfo(entry)
        }
        return AppInfo(id: AppID(id), name: name, icon: id, categories: categories.split(separator: ";").map(String.init))
    }

    static func segment(_ app: AppInfo, _ minutes: Double, _ title: String = "") -> Segment {
        Segment(app: app, title: title.isEmpty ? app.name : title, minutes: minutes)
    }

    static let docs = "Swift documentation — Mozilla Firefox"
    static let video = "Concurrency talk - YouTube — Mozilla Firefox"
    static let playthrough = "Speedrun in 42 minutes - YouTube — Mozilla Firefox"
    static let series = "Episode 3 | Netflix — Mozilla Firefox"
    static let feed = "Instagram — Mozilla Firefox"
    static let forum = "r/linux - Reddit — Mozilla Firefox"

    /// Editor 3 h 30, terminal 2 h, browser 1 h 45 of which 30 min a YouTube window, chat 45 min.
    public static let developer = Day(name: "developer", segments: Array(repeating: [
        segment(editor, 35), segment(terminal, 20), segment(browser, 12.5, docs), segment(browser, 5, video), segment(chat, 7.5),
    ], count: 6).flatMap { $0 })

    /// Browser 4 h, office 2 h, chat 1 h, a game 1 h.
    public static let student = Day(name: "student", segments: Array(repeating: [
        segment(browser, 40, "Lecture notes — Mozilla Firefox"), segment(office, 20), segment(chat, 10),
    ], count: 6).flatMap { $0 } + [segment(game, 60)])

    /// Graphics 5 h, browser 2 h, music 1 h.
    public static let designer = Day(name: "designer", segments: Array(repeating: [
        segment(graphics, 50), segment(browser, 20, "Colour palettes — Mozilla Firefox"), segment(music, 10),
    ], count: 6).flatMap { $0 })

    /// Three hours of Productivity: editor, terminal, browser and chat.
    public static let productivityMorning = Day(
        name: "developer, Productivity morning",
        segments: Array(repeating: [segment(editor, 30), segment(terminal, 15), segment(browser, 10, docs), segment(chat, 5)],
                        count: 3).flatMap { $0 },
        productivity: true, workApps: [editor.id, terminal.id, browser.id])

    /// The evening, 18:00 to midnight and into Wind Down at 22:00: a game 3 h, video in
    /// the browser 1 h 30, chat 1 h, a game store 30 min.
    public static let gamerEvening = Day(name: "gamer, evening", segments: [
        segment(chat, 10), segment(store, 20), segment(game, 75), segment(browser, 40, playthrough), segment(chat, 15),
        segment(game, 65), segment(browser, 50, playthrough), segment(chat, 35), segment(store, 10), segment(game, 40),
    ], start: monday(at: 18))

    /// 18:30 to 23:30: YouTube 1 h, chat 30 min, a side project 1 h, a game 1 h, music 30 min, the browser 1 h.
    public static let developerEvening = Day(name: "developer, evening", segments: [
        segment(browser, 30, video), segment(chat, 15), segment(editor, 60), segment(browser, 30, docs), segment(game, 60),
        segment(music, 30), segment(chat, 15), segment(browser, 30, video), segment(browser, 30, "Hacker News — Mozilla Firefox"),
    ], start: monday(at: 18.5))

    /// 19:00 to 00:30: homework 1 h 30, Instagram 45 min, chat 45 min, a series 1 h 30, Reddit 30 min, music 30 min.
    public static let studentEvening = Day(name: "student, evening", segments: [
        segment(office, 60), segment(browser, 15, feed), segment(chat, 15), segment(browser, 30, "Lecture notes — Mozilla Firefox"),
        segment(browser, 45, series), segment(chat, 15), segment(browser, 30, feed), segment(browser, 45, series),
        segment(music, 30), segment(browser, 30, forum), segment(chat, 15),
    ], start: monday(at: 19))

    public static let all = [developer, student, designer, productivityMorning, developerEvening, studentEvening, gamerEvening]

    public static func run(_ day: Day, zone: LocalTimeZone = CentralEuropeanZone()) -> Outcome {
        let minutes = day.segments.reduce(0) { $0 + $1.minutes }
        let start = day.start
        let end = start.addingTimeInterval(minutes * 60)
        var inputs = ModeInputs()
        if day.productivity { inputs.manual = ManualSwitch(mode: .productivity, since: start, until: end) }
        let resolver = ModeResolver(inputs: inputs, zone: zone)
        var engine = Engine(settings: Settings(), zone: zone, now: start)
        var ledger = NotificationLedger()
        var continues: [Continue] = []
        var now = start
        var decision = resolver.resolve(at: now)

        func handle(_ event: EngineEvent) {
            let actions = engine.handle(event, at: now)
            ledger.record(actions, at: now)
            for case .minimize(let app) in actions where app == engine.focused?.app.id {
                let answer = engine.handle(.continueRequested(app), at: now)
                ledger.record(answer, at: now)
                for case .recordBypass(let app, let mode, let rule, let granted, _) in answer {
                    continues.append(Continue(at: now, app: app, mode: mode, rule: rule, granted: granted))
                }
            }
        }

        handle(.mode(decision))
        for (index, segment) in day.segments.enumerated() {
            handle(.focus(FocusedApp(app: segment.app, window: WindowID(UInt64(index + 1)), title: segment.title)))
            let segmentEnd = now.addingTimeInterval(segment.minutes * 60)
            while let next = [engine.nextDeadline(), decision.next?.at].compactMap({ $0 }).filter({ $0 <= segmentEnd }).min() {
                now = max(now, next)
                if let change = decision.next?.at, change <= now {
                    decision = resolver.resolve(at: now)
                    handle(.mode(decision))
                }
                handle(.tick)
                // A deadline the engine does not move past would loop forever: a defect to see, not to hang on.
                if engine.nextDeadline().map({ $0 <= now }) == true, decision.next.map({ $0.at > now }) ?? true { break }
            }
            now = segmentEnd
        }
        return Outcome(name: day.name, ledger: ledger, continues: continues,
                       workDisables: ledger.disabled.filter(day.workApps.contains).count, minutes: minutes)
    }
}
