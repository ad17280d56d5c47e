import Agent
import AgentControl
import CalendarFeed
import FoundationEssentials
import ScreenTimeCore

/// Each configured calendar read over the window the agent expands (from the resolver's look-back
/// to a month ahead: `CalendarRefresher`'s), for `calendar list` and `doctor`: what is wrong with it.
struct CalendarCheck {
    var path: String
    var exists: Bool
    /// Each with its file, line when known, and event UID.
    var problems: [CalendarProblem]

    static func run(paths: [String], zone: LocalTimeZone, now: Date) -> [CalendarCheck] {
        let reader = CalendarReader(zone: zone)
        let window = now.addingTimeInterval(-ModeResolver.lookBack)..<now.addingTimeInterval(CalendarRefresher.defaultLookAhead)
        return paths.map { path in
            guard FileManager.default.fileExists(atPath: path) else { return CalendarCheck(path: path, exists: false, problems: []) }
            return CalendarCheck(path: path, exists: true, problems: reader.read(paths: [path], range: window, now: now).problems)
        }
    }
}
