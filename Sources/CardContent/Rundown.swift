import FeedReader
import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// The morning run-down: today's events, the to-dos due, top stories and podcasts from the user's
/// feeds, what arrived overnight while silenced, and the apps the user usually opens in the
/// morning. Shown as the Wake Up card and printed by `screentime rundown`. Never fails: what
/// cannot be read becomes a section's note; a section with nothing configured is left out.
public struct Rundown {
    public var settings: Settings
    public var zone: LocalTimeZone
    /// HOME, XDG_DATA_HOME (the usage store), XDG_CACHE_HOME (the feeds' cache).
    public var environment: [String: String]
    /// An app's name from its id (desktop entries); the id itself by default.
    public var names: (String) -> String

    public static let storiesPerFeed = 3

    public init(settings: Settings, zone: LocalTimeZone, environment: [String: String], names: @escaping (String) -> String = { $0 }) {
        self.settings = settings
        self.zone = zone
        self.environment = environment
        self.names = names
    }

    public func document(at now: Date) -> CardDocument {
        let dayEnd = settings.dayBoundary.end(of: now, in: zone)
        var sections = [Agenda.section(title: "Today", settings: settings, range: now..<dayEnd, zone: zone)]
        if let reminders = reminders(on: zone.localDate(of: now)) { sections.append(reminders) }
        sections += feedSections(now: now)
        sections += historySections(now: now)
        return CardDocument(icon: Mode.wakeUp.iconName, title: "Good morning",
                            message: "Here is what the day holds. Start it whenever you like: the choice is yours.",
                            sections: sections,
                            buttons: [CardButton(key: CardChoice.startDay, label: "Start the day", role: .primary),
                                      CardButton(key: CardChoice.close, label: "Close", role: .close)])
    }

    /// The to-dos due today or before; nil when no to-do list is configured.
    func reminders(on today: CivilDate) -> CardSection? {
        guard let configured = settings.content.todoPath else { return nil }
        let path = configured.hasPrefix("~/") ? (environment["HOME"] ?? "") + configured.dropFirst() : configured
        guard let data = FileManager.default.contents(atPath: path) else {
            return CardSection(title: "Reminders", items: [], note: "\(configured) cannot be read.")
        }
        let due = TodoList(parsing: String(decoding: data, as: UTF8.self)).due(on: today)
        return CardSection(title: "Reminders", items: due.map { item in
            item.due.map { $0 < today ? "\(item.text) (due \($0))" : item.text } ?? item.text
        }, note: due.isEmpty ? "Nothing due today." : nil)
    }

    /// Top stories and podcasts, each feed's newest; a feed that could not be fetched is named in the note.
    func feedSections(now: Date) -> [CardSection] {
        let urls = settings.content.feeds
        guard !urls.isEmpty else { return [] }
        let reports = FeedSource.read(urls, timeout: settings.content.feedTimeout,
                                      cache: FeedCache(directory: XDGPaths.feedCacheDirectory(environment: environment)), now: now)
        func section(_ title: String, _ reports: [FeedReport], empty: String) -> CardSection {
            let items = reports.flatMap { report -> [String] in
                guard let feed = report.feed else { return [] }
                let source = feed.title.isEmpty ? report.url : feed.title
                return feed.newest(Self.storiesPerFeed).map { "\($0.title) — \(source)" }
            }
            let notes = reports.compactMap(\.note)
            return CardSection(title: title, items: items, note: notes.isEmpty ? (items.isEmpty ? empty : nil) : notes.joined(separator: "\n"))
        }
        let podcasts = reports.filter { $0.feed?.isPodcast == true }
        let stories = reports.filter { $0.feed?.isPodcast != true }
        return (stories.isEmpty ? [] : [section("Top stories", stories, empty: "No stories in your feeds.")])
            + (podcasts.isEmpty ? [] : [section("Podcasts", podcasts, empty: "No new episodes.")])
    }

    /// Overnight and the usual morning apps, from the usage store; none before anything was recorded.
    func historySections(now: Date) -> [CardSection] {
        let store: UsageDatabase
        do { store = try UsageDatabase(path: XDGPaths.databaseFile(environment: environment), readOnly: true) } catch StoreError.missing {
            return []
        } catch {
            return [CardSection(title: "Overnight", items: [], note: "The usage history cannot be read: \(error)")]
        }
        var sections: [CardSection] = []
        do {
            let changes = try store.modeChanges(from: now.addingTimeInterval(-Overnight.lookBack), to: now.addingTimeInterval(1))
            let held = try store.heldNotifications(from: Overnight.start(changes: changes, before: now), to: now.addingTimeInterval(1))
            let lines = Overnight.lines(held, name: names)
            sections.append(CardSection(title: "Overnight", items: lines,
                                        note: lines.isEmpty ? "Nothing arrived while notifications were silenced." : nil))
            let morning = MorningApps(boundary: settings.dayBoundary, zone: zone)
            let history = morning.history(before: now)
            let uses = try store.intervals(from: history.lowerBound, to: history.upperBound)
                .map { MorningApps.Use(app: $0.app, start: $0.start, end: $0.end) }
            let usual = morning.usual(uses, before: now)
            if !usual.isEmpty {
                sections.append(CardSection(title: "Your usual morning apps", items: usual.map { names($0.rawValue) }))
            }
        } catch {
            sections.append(CardSection(title: "Overnight", items: [], note: "The usage history cannot be read: \(error)"))
        }
        return sections
    }
}
