import CalendarFeed
import FeedReader
import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// The morning run-down: the rest of today's events, the to-dos due, top stories and podcasts from
/// the user's feeds, what arrived overnight while silenced, and the apps the user usually opens in
/// the morning. The Wake Up card (`CardComposer`, occasion `.rundown`) and `screentime rundown`.
/// Never fails: what cannot be read becomes a section's note; a section with nothing configured
/// (no to-do list, no feeds, no history yet) is left out.
struct Rundown {
    let sources: CardSources

    static let title = "Good morning"
    static let message = "Here is what the day holds. Start it whenever you like: the choice is yours."
    static let storiesPerFeed = 3
    /// Events and reminders listed; more are counted in the note.
    static let itemLimit = 8

    func document(at now: Date) -> CardDocument {
        var sections = [today(at: now)]
        if let reminders = reminders(on: sources.zone.localDate(of: now)) { sections.append(reminders) }
        sections += feedSections(now: now)
        sections += historySections(now: now)
        return CardDocument(icon: Mode.wakeUp.iconName, title: Self.title, message: Self.message, sections: sections,
                            buttons: [CardButton(key: CardChoice.startDay, label: CardWording.startDay, role: .primary),
                                      CardComposer.closeButton])
    }

    /// The events of the rest of the day; unreadable calendars named.
    func today(at now: Date) -> CardSection {
        guard let agenda = sources.restOfDayEvents(at: now) else {
            return CardSection(title: "Today", items: [], note: "No calendars yet: `screentime calendar add PATH` adds one.")
        }
        let items = agenda.events.prefix(Self.itemLimit).map { event in
            CardWording.event(event.title, location: event.location,
                              time: event.allDay ? nil : (sources.clock(event.start), sources.clock(event.end)))
        }
        let more = agenda.events.count > Self.itemLimit ? ["\(agenda.events.count - Self.itemLimit) more today."] : []
        let notes = more + agenda.problems.map(\.description)
        return CardSection(title: "Today", items: items,
                           note: notes.isEmpty ? (items.isEmpty ? "Nothing in your calendars today." : nil) : notes.joined(separator: "\n"))
    }

    /// The open to-dos due today or before; nil when no to-do list is configured.
    func reminders(on today: CivilDate) -> CardSection? {
        switch sources.openToDos() {
        case nil: return nil
        case .failure(let error): return CardSection(title: "Reminders", items: [], note: error.message)
        case .success(let open):
            let due = open.filter { $0.due.map { $0 <= today } ?? false }
            let items = due.prefix(Self.itemLimit).map { item in
                item.due.map { $0 < today ? "\(item.text) (due \($0))" : item.text } ?? item.text
            }
            let note = due.isEmpty ? "Nothing due today." : due.count > Self.itemLimit ? "\(due.count - Self.itemLimit) more due." : nil
            return CardSection(title: "Reminders", items: items, note: note)
        }
    }

    /// Top stories and podcasts, each feed's newest; a feed that could not be fetched is named in the note.
    func feedSections(now: Date) -> [CardSection] {
        let content = sources.settings.content
        guard !content.feeds.isEmpty else { return [] }
        let cache = FeedCache(directory: XDGPaths.feedCacheDirectory(environment: sources.environment))
        let reports = FeedSource.read(content.feeds, timeout: content.feedTimeout, cache: cache, now: now)
        func section(_ title: String, _ reports: [FeedReport], empty: String) -> CardSection {
            let items = reports.flatMap { report -> [String] in
                guard let feed = report.feed else { return [] }
                let source = feed.title.isEmpty ? report.url : feed.title
                return feed.newest(Self.storiesPerFeed).map { "\($0.title) — \(source)" }
            }
            let notes = reports.compactMap { $0.note(label: CardComposer.linkLabel($0.url), now: now) }
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
        do { store = try UsageDatabase(path: XDGPaths.databaseFile(environment: sources.environment), readOnly: true) } catch StoreError.missing {
            return []
        } catch {
            return [CardSection(title: "Overnight", items: [], note: "The usage history cannot be read: \(error)")]
        }
        let names = Dictionary(sources.entries.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        func name(_ app: String) -> String { names[app] ?? app }
        var sections: [CardSection] = []
        do {
            let changes = try store.modeChanges(from: now.addingTimeInterval(-Overnight.lookBack), to: now.addingTimeInterval(1))
            let held = try store.heldNotifications(from: Overnight.start(changes: changes, before: now), to: now.addingTimeInterval(1))
            let lines = Overnight.lines(held, name: name)
            sections.append(CardSection(title: "Overnight", items: lines,
                                        note: lines.isEmpty ? "Nothing arrived while notifications were silenced." : nil))
            let morning = MorningApps(boundary: sources.settings.dayBoundary, zone: sources.zone)
            let history = morning.history(before: now)
            let uses = try store.intervals(from: history.lowerBound, to: history.upperBound)
                .map { MorningApps.Use(app: $0.app, start: $0.start, end: $0.end) }
            let usual = morning.usual(uses, before: now)
            if !usual.isEmpty {
                sections.append(CardSection(title: "Your usual morning apps", items: usual.map { name($0.rawValue) }))
            }
        } catch {
            sections.append(CardSection(title: "Overnight", items: [], note: "The usage history cannot be read: \(error)"))
        }
        return sections
    }
}
