import FoundationEssentials
import ScreenTimeCore

/// What reading the calendars found.
public struct CalendarReadResult: Sendable {
    /// Occurrences of events that name a mode, overlapping the range read, sorted by start.
    public var intervals: [CalendarInterval] = []
    /// Files that could not be read, lines libical skipped, events left out and why.
    public var problems: [CalendarProblem] = []
}

/// Reads .ics files and folders into mode intervals: an event whose summary or category names a mode
/// (see `CalendarInterval.namedMode`) holds that mode for its duration. libical expands RRULE, RDATE
/// and EXDATE and applies VTIMEZONE (or built-in) rules; RECURRENCE-ID overrides replace the
/// occurrence they name. Floating times and all-day events are in the user's local time.
///
/// Events naming Cheat Day are left out (reported as a problem): the 12-hour notice needs to know when
/// a Cheat Day was booked, which a calendar file cannot tell; `screentime cheat-day book` does.
public struct CalendarReader {
    public var zone: LocalTimeZone
    /// Recurrences expanded per rule at most (a guard against rules that never end).
    public static let occurrenceCap = 100_000
    /// Mode intervals kept per file and in all (those not over at `now` first, the earliest first):
    /// more than a real calendar has in the weeks read (an hourly event through every working day),
    /// and few enough that the agent decides modes from them in milliseconds (the mode resolver's
    /// search for the next change grows with the square of the events).
    public var perFileLimit = 250
    public var totalLimit = 500
    /// Problems reported per file: a damaged file's first ones say what is wrong.
    public var problemLimit = 20

    public init(zone: LocalTimeZone) { self.zone = zone }

    /// Reads every path (files or folders) for `range`; a broken file does not stop the others.
    /// `now` (the start of the range when nil) decides which intervals a cut keeps.
    public func read(paths: [String], range: Range<Date>, now: Date? = nil) -> CalendarReadResult {
        let priority = CutPriority(now: now ?? range.lowerBound)
        var result = CalendarReadResult()
        for path in paths {
            do {
                for file in try CalendarFiles.icsFiles(at: path) {
                    do {
                        let found = try readFile(file, range: range)
                        result.intervals += bounded(found.intervals, to: perFileLimit, in: file, priority, &result.problems)
                        result.problems += found.problems
                    } catch {
                        result.problems.append(error.problem)
                    }
                }
            } catch {
                result.problems.append(error.problem)
            }
        }
        if result.intervals.count > totalLimit {
            result.intervals.sort(by: priority.before)
            for path in Set(result.intervals[totalLimit...].map(\.source)).sorted() {
                result.problems.append(CalendarProblem(path: path, message: "the calendars have more than \(totalLimit) mode events in the weeks read; some from this file are left out"))
            }
            result.intervals.removeSubrange(totalLimit...)
        }
        result.intervals.sort { ($0.start, $0.source, $0.summary) < ($1.start, $1.source, $1.summary) }
        return result
    }

    /// Which intervals a cut keeps: those not over at `now` (earliest first), then the most recent past ones.
    private struct CutPriority {
        let now: Date
        func before(_ a: CalendarInterval, _ b: CalendarInterval) -> Bool {
            let (aCurrent, bCurrent) = (a.end > now, b.end > now)
            if aCurrent != bCurrent { return aCurrent }
            return aCurrent ? a.start < b.start : a.start > b.start
        }
    }

    /// A file's `limit` most relevant intervals, with a problem naming it when some were left out.
    private func bounded(_ intervals: [CalendarInterval], to limit: Int, in file: String, _ priority: CutPriority,
                         _ problems: inout [CalendarProblem]) -> [CalendarInterval] {
        guard intervals.count > limit else { return intervals }
        problems.append(CalendarProblem(path: file, message: "\(intervals.count) mode events in the weeks read, more than \(limit); only \(limit) are used, from now on"))
        return Array(intervals.sorted(by: priority.before).prefix(limit))
    }

    /// Reads one .ics file; throws when the file cannot be read or holds no calendar at all.
    public func readFile(_ path: String, range: Range<Date>) throws(CalendarProblemError) -> CalendarReadResult {
        var intervals: [CalendarInterval] = []
        var problems: [CalendarProblem] = []
        try eachOccurrence(inFile: path, range: range, problems: &problems) { event, span in
            add(event, span, from: path, to: &intervals)
        }
        return CalendarReadResult(intervals: intervals, problems: problems)
    }

    /// Hands `visit` every occurrence overlapping `range` of the file's events (RECURRENCE-ID overrides
    /// in place of the occurrence they replace), and adds the file's problems and those `visit` answers
    /// (each once), at most `problemLimit` of them, to `problems`. Throws when the file cannot be read
    /// or holds no calendar at all.
    func eachOccurrence(inFile path: String, range: Range<Date>, problems: inout [CalendarProblem],
                        visit: (ICalEvent, Range<Date>) -> CalendarProblem?) throws(CalendarProblemError) {
        var found = FileProblems(path: path, limit: problemLimit)
        let document = try ParsedCalendarFile.read(path, problems: &found)
        let events = document.events
        for event in events {
            for problem in EventCheck.problems(of: event, in: path, instant: instant) { found.add(problem) }
        }
        let overrides = Dictionary(grouping: events.filter { $0.recurrenceID != nil && $0.uid != nil }, by: { $0.uid! })
        for event in events where event.recurrenceID == nil {
            for tzid in Set(event.unknownTimeZones) {
                found.add(CalendarProblem(path: path, message: "unknown time zone “\(tzid)” in “\(event.summary)”, read as local time", uid: event.uid))
            }
            let replaced = Set((event.uid.flatMap { overrides[$0] } ?? []).compactMap { $0.recurrenceID.flatMap(instant) })
            for occurrence in occurrences(of: event, range: range) where !replaced.contains(occurrence.lowerBound) {
                if let problem = visit(event, occurrence) { found.add(problem) }
            }
        }
        for event in overrides.values.joined() {
            for occurrence in occurrences(of: event, range: range, expand: false) {
                if let problem = visit(event, occurrence) { found.add(problem) }
            }
        }
        problems += found.all
    }

    /// Keeps the occurrence when its event names a mode; answers why a Cheat Day event is left out.
    private func add(_ event: ICalEvent, _ span: Range<Date>, from path: String, to intervals: inout [CalendarInterval]) -> CalendarProblem? {
        guard !event.isCancelled,
              let mode = CalendarInterval.namedMode(summary: event.summary, categories: event.categories) else { return nil }
        guard mode != .cheatDay else {
            return CalendarProblem(path: path, message: "“\(event.summary)” is left out: a Cheat Day is booked with `screentime cheat-day book`, at least 12 hours ahead",
                                   uid: event.uid)
        }
        intervals.append(CalendarInterval(mode: mode, start: span.lowerBound, end: span.upperBound,
                                          summary: event.summary, source: path))
        return nil
    }

    /// The event's occurrences overlapping `range`: DTSTART, RRULE and RDATE starts less EXDATEs, each
    /// lasting the event's duration (DTEND or DURATION; exact seconds, or whole local days for dates),
    /// its times read as `EventCheck` says (a DATE start with a DATE-TIME end, an end before the start).
    func occurrences(of event: ICalEvent, range: Range<Date>, expand: Bool = true) -> [Range<Date>] {
        guard let times = EventCheck.times(of: event), let first = instant(times.start) else { return [] }
        let start = times.start
        var starts = [start]
        if expand {
            starts += event.ruleStarts(from: start, cap: Self.occurrenceCap) { (instant($0) ?? range.upperBound) < range.upperBound }
            starts += event.extraDates
        }
        let excluded = Set(event.exceptionDates.compactMap(instant))
        let length: Length
        if let end = times.end, let last = instant(end) {
            length = start.isDate ? .days(Int((last.timeIntervalSince(first) / 86_400).rounded())) : .seconds(last.timeIntervalSince(first))
        } else if let seconds = event.durationSeconds {
            length = start.isDate ? .days(seconds / 86_400) : .seconds(TimeInterval(seconds))
        } else {
            length = start.isDate ? .days(1) : .seconds(0)
        }
        var seen = Set<Date>()
        return starts.compactMap { time -> Range<Date>? in
            guard let begin = instant(time), !excluded.contains(begin), seen.insert(begin).inserted else { return nil }
            let end: Date = switch length {
            case .seconds(let seconds): begin.addingTimeInterval(seconds)
            case .days(let days): zone.startOfDay(zone.localDate(of: begin).adding(days: days))
            }
            // An end before the start (named by `EventCheck`) spans from the end to the start.
            let span = min(begin, end)..<max(begin, end)
            guard !span.isEmpty, span.overlaps(range) else { return nil }
            return span
        }.sorted { $0.lowerBound < $1.lowerBound }
    }

    private enum Length {
        case seconds(TimeInterval)
        case days(Int)
    }

    /// The instant of a calendar time: libical for UTC and zoned times, the user's zone for floating
    /// times and dates (midnight).
    func instant(_ time: ICalTime) -> Date? {
        if let seconds = time.unixTime { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let date = CivilDate(year: time.year, month: time.month, day: time.day)
        guard date.isValid else { return nil }
        let wall = time.isDate ? WallTime(secondsOfDay: 0) : WallTime(hour: time.hour, minute: time.minute, second: time.second)
        return zone.instant(of: date, at: wall)
    }

}
