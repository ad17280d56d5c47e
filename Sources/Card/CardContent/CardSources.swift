import CalendarFeed
import FoundationEssentials
import LocalSystem
import ScreenTimeCore
import SyncFolder
import UsageStore

/// The user's files a card reads, each only when the card needs it: the config (a broken or
/// missing file gives the defaults: the agent and `doctor` name the problem), the usage store
/// read-only (none yet: no statistics), the installed desktop entries, the calendars, the to-do list.
struct CardSources {
    let environment: [String: String]
    let zone: LocalTimeZone
    let settings: Settings

    init(environment: [String: String], zone: LocalTimeZone) {
        self.environment = environment
        self.zone = zone
        let path = XDGPaths.configFile(environment: environment)
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        settings = text.flatMap { try? Settings(KeyFile(parsing: $0), path: path) } ?? Settings()
    }

    /// Today's time in `app` and each of the last seven days', by the configured day boundary,
    /// up to `now`; nil when there is no usage store to read. One query for the week: each costs
    /// a pass over the history before its end.
    func statistics(of app: AppID, at now: Date) -> CardStatistics? {
        guard let store = try? UsageDatabase(path: XDGPaths.databaseFile(environment: environment), readOnly: true) else { return nil }
        let boundary = settings.dayBoundary
        let today = zone.localDate(of: boundary.start(of: now, in: zone))
        let days = (-6...0).map { today.adding(days: $0) }
        let starts = (days + [today.adding(days: 1)]).map { boundary.start(ofDay: $0, in: zone) }
        let intervals = ((try? store.intervals(from: starts[0], to: now)) ?? []).filter { $0.app == app }
        let elsewhere = otherComputers(days: days[0]...today)
        let week = days.indices.map { index in
            let (start, end) = (starts[index], min(starts[index + 1], now))
            let seconds = intervals.reduce(0.0) { $0 + max(0, min($1.end, end).timeIntervalSince(max($1.start, start))) }
                + elsewhere.usage(on: days[index]).apps[app, default: 0]
            return CardDayBar(label: String(days[index].weekday.name.prefix(3)), seconds: seconds)
        }
        return CardStatistics(today: week.last?.seconds ?? 0, week: week)
    }

    /// The other computers joined to this one's synced folder (`screentime sync`), their `days`:
    /// the card's figures count every computer, as the limits do.
    private func otherComputers(days: ClosedRange<CivilDate>) -> SyncFolderReading {
        let membership = SyncMembership.load(environment: environment)
        guard let root = membership.folder else { return SyncFolderReading() }
        return SyncFolder(root: root).read(skipping: membership.device, days: days)
    }

    /// The installed applications offered in menus, by name.
    var entries: [DesktopEntry] {
        DesktopEntryIndex.load(environment: environment).filter { !$0.noDisplay }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// The to-do list's open items, most urgent first; nil when none is configured, an error
    /// message when the file cannot be read.
    func openToDos() -> Result<[TodoList.Item], CardSourceError>? {
        guard let configured = settings.content.todoPath else { return nil }
        let path = expandingHome(configured)
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(CardSourceError(message: "\(path) cannot be read.")) }
        return .success(TodoList(parsing: String(decoding: data, as: UTF8.self)).open)
    }

    /// The calendars' events overlapping the rest of the day (to the configured day start), and
    /// what could not be read; nil when no calendar is configured.
    func restOfDayEvents(at now: Date) -> AgendaReadResult? {
        let paths = settings.modes.calendarPaths
        guard !paths.isEmpty else { return nil }
        return AgendaReader(zone: zone).read(paths: paths, range: now..<settings.dayBoundary.end(of: now, in: zone))
    }

    /// A path written from the home folder (`~/Music/sleep.m3u`) made absolute (`XDGPaths.expandingHome`).
    func expandingHome(_ path: String) -> String { XDGPaths.expandingHome(path, environment: environment) }

    /// `10:00` on the user's clock (minutes rounded down).
    func clock(_ instant: Date) -> String {
        let time = zone.localDateTime(of: instant).time
        return WallTime(hour: time.hour, minute: time.minute).description
    }
}

/// What a card could not read, said in its section.
struct CardSourceError: Error {
    var message: String
}
