import CalendarFeed
import FoundationEssentials
import ScreenTimeCore

/// The user's calendars as a card section: the events of a range, one line each.
public enum Agenda {
    /// The events of the configured calendars overlapping `range` as a section; unreadable files
    /// are named in the note.
    public static func section(title: String, settings: Settings, range: Range<Date>, zone: LocalTimeZone,
                               limit: Int = 8) -> CardSection {
        let paths = settings.modes.calendarPaths
        guard !paths.isEmpty else {
            return CardSection(title: title, items: [], note: "No calendars yet: add one with `screentime calendar add PATH`.")
        }
        let result = AgendaReader(zone: zone, limit: limit).read(paths: paths, range: range)
        let today = zone.localDate(of: range.lowerBound)
        var notes = result.problems.map { "Could not read \($0)" }
        if result.events.isEmpty && notes.isEmpty { notes = ["Nothing in your calendars."] }
        return CardSection(title: title, items: result.events.map { line($0, zone: zone, today: today) },
                           note: notes.isEmpty ? nil : notes.joined(separator: "\n"))
    }

    /// `09:00–09:15 Stand-up (Room 4)`, `All day: Ada's birthday`; the weekday first for an event
    /// starting on another day than `today` (`Tue 09:00–10:00 Review`).
    public static func line(_ event: AgendaEvent, zone: LocalTimeZone, today: CivilDate) -> String {
        let title = PlainLine.of(event.title)
        let place = event.location.map { " (\(PlainLine.of($0)))" } ?? ""
        guard !event.allDay else { return "All day: \(title)\(place)" }
        let start = zone.localDateTime(of: event.start)
        let end = zone.localDateTime(of: event.end)
        let day = start.date == today ? "" : weekday(start.date) + " "
        return "\(day)\(clock(start.time))–\(clock(end.time)) \(title)\(place)"
    }

    private static func clock(_ time: WallTime) -> String { WallTime(hour: time.hour, minute: time.minute).description }

    private static func weekday(_ date: CivilDate) -> String {
        let name = date.weekday.shortName
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
