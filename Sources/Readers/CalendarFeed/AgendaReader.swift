import FoundationEssentials
import ScreenTimeCore

/// One occurrence of a calendar event, whatever it is about (the agenda, not the modes). The
/// title and location are the file's text as plain lines (`PlainLine`).
public struct AgendaEvent: Hashable, Sendable {
    public var title: String
    public var start: Date
    /// Exclusive; for an all-day event, the local midnight after its last day.
    public var end: Date
    /// A date rather than a time (DTSTART;VALUE=DATE): the whole local day, shown without a time.
    public var allDay: Bool
    public var location: String?

    public init(title: String, start: Date, end: Date, allDay: Bool, location: String? = nil) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.location = location
    }
}

/// What reading the agenda found.
public struct AgendaReadResult: Sendable {
    /// Occurrences overlapping the range, all-day events first on their day, then by start, at most the limit.
    public var events: [AgendaEvent] = []
    /// Files that could not be read, lines skipped, and events left out beyond the limit.
    public var problems: [CalendarProblem] = []
}

/// Reads every event of the configured calendars (files and folders, as the mode reader takes them)
/// overlapping a range, recurrences expanded and time zones applied by the same code as the modes.
public struct AgendaReader {
    public var reader: CalendarReader
    /// Events kept in all: an agenda shows a day or two.
    public var limit: Int

    public init(zone: LocalTimeZone, limit: Int = 50) {
        reader = CalendarReader(zone: zone)
        self.limit = limit
    }

    public func read(paths: [String], range: Range<Date>) -> AgendaReadResult {
        var events: [AgendaEvent] = []
        var problems: [CalendarProblem] = []
        for path in paths {
            do {
                for file in try CalendarFiles.icsFiles(at: path) {
                    // Each event's title and location are read once, not once an occurrence.
                    var shown: [ICalEvent: (title: String, allDay: Bool, location: String?)?] = [:]
                    do {
                        try reader.eachOccurrence(inFile: file, range: range, problems: &problems) { event, span in
                            let facts = shown[event] ?? {
                                let facts = event.isCancelled ? nil
                                    : (PlainLine.of(event.summary), event.start?.isDate ?? false, event.location.map { PlainLine.of($0) })
                                shown[event] = facts
                                return facts
                            }()
                            if let facts {
                                events.append(AgendaEvent(title: facts.title, start: span.lowerBound, end: span.upperBound, allDay: facts.allDay, location: facts.location))
                            }
                            return nil
                        }
                    } catch {
                        problems.append(error.problem)
                    }
                }
            } catch {
                problems.append(error.problem)
            }
        }
        let zone = reader.zone
        // Each event's local day worked out once, not once a comparison.
        events = events.map { ($0, zone.localDate(of: $0.start)) }.sorted { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            if a.0.allDay != b.0.allDay { return a.0.allDay }
            return (a.0.start, a.0.title) < (b.0.start, b.0.title)
        }.map(\.0)
        if events.count > limit {
            problems.append(CalendarProblem(path: paths.joined(separator: ", "),
                                            message: "\(events.count) events in the range; the first \(limit) are shown"))
            events.removeSubrange(limit...)
        }
        return AgendaReadResult(events: events, problems: problems)
    }
}
