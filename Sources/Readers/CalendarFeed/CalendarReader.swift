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
/// and EXDATE and applies VTIMEZONE (or built-in, or Windows-named) rules; `EventSeries` applies
/// versions and RECURRENCE-ID overrides. Floating times and all-day events are in the user's local time.
///
/// Events naming Cheat Day are left out (reported as a problem): the 12-hour notice needs to know when
/// a Cheat Day was booked, which a calendar file cannot tell; `screentime cheat-day book` does.
public struct CalendarReader {
    public var zone: LocalTimeZone
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
        // Each event's mode is read once, not once an occurrence: thousands of occurrences spent
        // most of their time splitting the same summary into words.
        var modes: [ICalEvent: Mode?] = [:]
        try eachOccurrence(inFile: path, range: range, problems: &problems) { event, span in
            let mode = modes[event] ?? {
                let mode = event.isCancelled ? nil : CalendarInterval.namedMode(summary: event.summary, categories: event.categories)
                modes[event] = mode
                return mode
            }()
            return add(event, mode, span, from: path, to: &intervals)
        }
        return CalendarReadResult(intervals: intervals, problems: problems)
    }

    /// Hands `visit` every occurrence overlapping `range` of the file's events (see `EventSeries`: the
    /// newest version of each, overrides in place of the occurrences they replace), and adds the
    /// file's problems and those `visit` answers (each once), at most `problemLimit` of them, to
    /// `problems`. Throws when the file cannot be read or holds no calendar at all.
    func eachOccurrence(inFile path: String, range: Range<Date>, problems: inout [CalendarProblem],
                        visit: (ICalEvent, Range<Date>) -> CalendarProblem?) throws(CalendarProblemError) {
        var found = FileProblems(path: path, limit: problemLimit)
        let document = try ParsedCalendarFile.read(path, window: range, problems: &found)
        for event in document.events {
            for problem in EventCheck.problems(of: event, in: path, instant: { $0.instant(in: zone) }) { found.add(problem) }
        }
        for event in document.events where event.recurrenceID == nil {
            for tzid in Set(event.unknownTimeZones) {
                found.add(CalendarProblem(path: path, message: "unknown time zone “\(tzid)” in “\(event.summary)”, read as local time", uid: event.uid))
            }
        }
        var budget = RecurrenceBudget()
        for series in EventSeries.of(document.events) {
            let (occurrences, cut) = series.occurrences(in: range, zone: zone, budget: &budget)
            if let cut { found.add(CalendarProblem(path: path, message: cut, uid: series.master?.uid)) }
            for (event, occurrence) in occurrences {
                if let problem = visit(event, occurrence) { found.add(problem) }
            }
        }
        for (tzid, reason) in document.refusedZones {
            found.add(CalendarProblem(path: path, message: "the time zone “\(tzid)” is not read: \(reason); times in it are read as local time"))
        }
        problems += found.all
    }

    /// Keeps the occurrence when its event names a mode (and is not cancelled); answers why a Cheat Day event is left out.
    private func add(_ event: ICalEvent, _ mode: Mode?, _ span: Range<Date>, from path: String, to intervals: inout [CalendarInterval]) -> CalendarProblem? {
        guard let mode else { return nil }
        guard mode != .cheatDay else {
            return CalendarProblem(path: path, message: "“\(event.summary)” is left out: a Cheat Day is booked with `screentime cheat-day book`, at least 12 hours ahead",
                                   uid: event.uid)
        }
        intervals.append(CalendarInterval(mode: mode, start: span.lowerBound, end: span.upperBound,
                                          summary: event.summary, source: path))
        return nil
    }
}
