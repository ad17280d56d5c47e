import FoundationEssentials
import ScreenTimeCore

/// One event's times checked: what is wrong is named (with the event's UID), and read the way
/// Python's icalendar with recurring-ical-events reads it, the independent implementation the
/// occurrences are compared with (checked with icalendar 7.3 and recurring-ical-events 3.8):
/// - a DATE start with a DATE-TIME end starts at midnight of its day in the end's zone and ends at
///   the end (not a whole number of local days);
/// - a DATE-TIME start with a DATE end ends at midnight of that day in the start's zone;
/// - an end before the start (DTEND or a negative DURATION) spans from the end to the start
///   (DAVx⁵ drops such a DTEND instead; reading both times loses less);
/// - an event with no DTSTART that can be read is left out (recurring-ical-events fails on it);
/// - an event lasting more than `longest` is left out: a mistyped year (an end in 2126 for 2026, a
///   start in 9999) would otherwise hold a mode, or fill every day's agenda, for a century.
/// An event naming a mode that lasts no time, and a RECURRENCE-ID without a UID, are named too: both
/// would otherwise be left out without a word.
enum EventCheck {
    /// DTSTART and DTEND (when given) as the occurrences are worked out from; nil without DTSTART.
    static func times(of event: ICalEvent) -> (start: ICalTime, end: ICalTime?)? {
        guard let start = event.start else { return nil }
        let times = readTimes(of: event, start: start)
        return length(of: event, times) > longest ? nil : times
    }

    /// Ten years: longer than any plan a calendar holds, shorter than a mistyped century.
    static let longest = 3_653 * 86_400

    private static func readTimes(of event: ICalEvent, start: ICalTime) -> (start: ICalTime, end: ICalTime?) {
        guard let end = event.end, start.isDate != end.isDate else { return (start, event.end) }
        return start.isDate ? (start.midnight(in: end.anchor), end) : (start, end.midnight(in: start.anchor))
    }

    /// DTEND less DTSTART on the wall clock, or DURATION, either way round.
    private static func length(of event: ICalEvent, _ times: (start: ICalTime, end: ICalTime?)) -> Int {
        if let end = times.end { return abs(end.wallSeconds - times.start.wallSeconds) }
        return event.durationSeconds.map(abs) ?? 0
    }

    /// What is wrong with the event's times, and how it is read.
    static func problems(of event: ICalEvent, in path: String, instant: (ICalTime) -> Date?) -> [CalendarProblem] {
        func problem(_ message: String) -> CalendarProblem {
            CalendarProblem(path: path, message: "“\(event.summary)”: " + message, uid: event.uid)
        }
        guard let start = event.start else { return [problem("no DTSTART that can be read; the event is left out")] }
        let read = readTimes(of: event, start: start)
        guard length(of: event, read) <= longest else {
            let end = read.end.map { "DTEND \($0.text)" } ?? "DURATION \(event.durationSeconds.map { $0 / 86_400 } ?? 0) days"
            return [problem("lasts more than 10 years (DTSTART \(start.text), \(end)): a mistyped year? The event is left out")]
        }
        let times = read
        var problems: [CalendarProblem] = []
        if let end = event.end, start.isDate != end.isDate {
            problems.append(problem(start.isDate
                ? "DTSTART is a date (all day) but DTEND a date-time; read from midnight of \(start.dayText) (in DTEND's zone) to DTEND"
                : "DTSTART is a date-time but DTEND a date; read as ending at midnight of \(end.dayText) (in DTSTART's zone)"))
        }
        if let end = times.end, let first = instant(times.start), let last = instant(end), last < first {
            problems.append(problem("DTEND is before DTSTART; read the other way round, from DTEND to DTSTART"))
        }
        if event.end == nil, let seconds = event.durationSeconds, seconds < 0 {
            problems.append(problem("DURATION is negative; read as ending at DTSTART"))
        }
        if !start.isDate, CalendarInterval.namedMode(summary: event.summary, categories: event.categories) != nil,
           times.end.map({ instant($0) == instant(times.start) }) ?? ((event.durationSeconds ?? 0) == 0) {
            problems.append(problem("names a mode but lasts no time (its end is its start, or it has no DTEND or DURATION); it sets no mode"))
        }
        if event.recurrenceID != nil, event.uid == nil {
            problems.append(problem("a RECURRENCE-ID without a UID replaces no occurrence; the event is left out"))
        }
        return problems
    }
}

extension ICalTime {
    /// Midnight at the start of this day, as a date-time placed as `anchor` says.
    fileprivate func midnight(in anchor: Anchor) -> ICalTime {
        var time = self
        time.isDate = false
        (time.hour, time.minute, time.second) = (0, 0, 0)
        time.anchor = anchor
        return time
    }

    var dayText: String { CivilDate(year: year, month: month, day: day).description }

    /// `2026-12-01`, or `2026-12-01 09:30` for a date-time, as written (on its own wall clock).
    var text: String {
        isDate ? dayText : dayText + " " + (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
