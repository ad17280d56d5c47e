import FoundationEssentials
import ScreenTimeCore

/// One UID's events in a file, as a calendar app shows them: the newest version of the series (its
/// master) and the newest version of each RECURRENCE-ID override. A file may hold several versions
/// of one event (an export saved again after a change, each version with a higher SEQUENCE).
struct EventSeries {
    /// The recurring (or single) event; nil when the file holds only overrides of it.
    var master: ICalEvent?
    /// One per RECURRENCE-ID, in file order.
    var overrides: [ICalEvent] = []
    private var overrideIndex: [RecurrenceKey: Int] = [:]

    /// The events grouped by UID, in file order (an event without a UID is a series of its own).
    static func of(_ events: [ICalEvent]) -> [EventSeries] {
        var series: [EventSeries] = []
        var byUID: [String: Int] = [:]
        for event in events {
            guard let uid = event.uid else {
                // An override without a UID replaces nothing: left out, as `EventCheck` says.
                if event.recurrenceID == nil { series.append(EventSeries(master: event)) }
                continue
            }
            if let index = byUID[uid] { series[index].add(event) } else {
                byUID[uid] = series.count
                series.append(EventSeries())
                series[series.count - 1].add(event)
            }
        }
        return series
    }

    /// Keeps `event` where it is newer than the version it replaces.
    private mutating func add(_ event: ICalEvent) {
        guard let id = event.recurrenceID else {
            if master.map({ Self.isNewer(event, than: $0) }) ?? true { master = event }
            return
        }
        if let index = overrideIndex[RecurrenceKey(id)] {
            if Self.isNewer(event, than: overrides[index]) { overrides[index] = event }
        } else {
            overrideIndex[RecurrenceKey(id)] = overrides.count
            overrides.append(event)
        }
    }

    /// A higher SEQUENCE, then a later DTSTAMP, then a later LAST-MODIFIED; of equals, the first stays.
    private static func isNewer(_ event: ICalEvent, than other: ICalEvent) -> Bool {
        (event.sequence, event.stamp ?? .min, event.lastModified ?? .min) > (other.sequence, other.stamp ?? .min, other.lastModified ?? .min)
    }

    /// Every occurrence overlapping `range`: the master's (DTSTART, RRULE and RDATE less EXDATE) that
    /// no override replaces, those after a RANGE=THISANDFUTURE override moved and lasting as it says,
    /// and the overrides themselves. Floating times and dates are in `zone`. The RRULE is walked only
    /// over what can reach the range, within what `budget` leaves; `cut` says where a bound stopped it.
    func occurrences(in range: Range<Date>, zone: LocalTimeZone, budget: inout RecurrenceBudget)
        -> (found: [(event: ICalEvent, span: Range<Date>)], cut: String?) {
        guard let master, let first = master.times?.start, first.instant(in: zone) != nil else {
            return (overrides.compactMap { event in event.ownSpan(in: zone).flatMap { $0.overlaps(range) ? (event, $0) : nil } }, nil)
        }
        let laterChanges = overrides.filter(\.changesLaterOccurrences).compactMap { ChangeFromHereOn($0, zone: zone) }
            .sorted { $0.from < $1.from }
        let length = master.length(zone: zone)
        // A series moved earlier from some date on brings occurrences from after the range into it,
        // one moved later or lasting long from before it; a stale override is told by its
        // RECURRENCE-ID, which may lie outside the range.
        let moveBack = laterChanges.map { -$0.earliestShift }.max() ?? 0
        let reachBack = ([length] + laterChanges.map(\.length)).map(\.longestSeconds).max()! + max(0, laterChanges.map(\.latestShift).max() ?? 0)
        let olderOverrides = overrides.filter { $0.sequence < master.sequence }
        let lastOlderOverride = olderOverrides.compactMap { $0.recurrenceID?.instant(in: zone) }.max()
        let firstOlderOverride = olderOverrides.filter { $0.ownSpan(in: zone)?.overlaps(range) ?? false }
            .compactMap { $0.recurrenceID?.instant(in: zone) }.min()
        let limit = max(range.upperBound.addingTimeInterval(TimeInterval(max(0, moveBack))),
                        lastOlderOverride?.addingTimeInterval(1) ?? range.upperBound)
        let from = min(range.lowerBound.addingTimeInterval(-TimeInterval(reachBack)), firstOlderOverride ?? range.lowerBound)
        let excluded = RecurrenceSet(master.exceptionDates, zone: zone)
        let walk = master.occurrenceStarts(from: first, over: from..<limit, excluded: excluded, zone: zone, bound: budget.forNextEvent)
        let fileBoundApplies = budget.fileBoundApplies
        budget.spend(walk.rule)
        let starts = walk.starts
        let all = RecurrenceSet(starts.map(\.start), zone: zone)
        let replaced = RecurrenceSet(overrides.compactMap(\.recurrenceID), zone: zone)

        var found: [(event: ICalEvent, span: Range<Date>)] = []
        for occurrence in starts where !replaced.contains(occurrence.start) {
            guard let begin = occurrence.start.instant(in: zone) else { continue }
            let span: Range<Date>?
            let event: ICalEvent
            if let change = laterChanges.last(where: { $0.from < begin }) {
                event = change.override
                span = change.span(movedFrom: occurrence.start, zone: zone)
            } else {
                event = master
                span = occurrence.end.map { end in end.instant(in: zone).flatMap { begin < $0 ? begin..<$0 : nil } }
                    ?? length.span(from: occurrence.start, zone: zone)
            }
            if let span, span.overlaps(range) { found.append((event, span)) }
        }
        for override in overrides {
            guard let id = override.recurrenceID, !excluded.contains(id) else { continue }
            // An override older than the series that names none of its occurrences was left by an
            // earlier version (the series was rescheduled since).
            if override.sequence < master.sequence && !all.contains(id) { continue }
            if let span = override.ownSpan(in: zone), span.overlaps(range) { found.append((override, span)) }
        }
        let cut = walk.rule.cutAfter.map { last in
            let bound = fileBoundApplies ? "the file's events are read for (\(RecurrenceBound.perFile.made) occurrences or \(RecurrenceBound.perFile.periods) periods of their rules)"
                : "one event is read for (\(RecurrenceBound.perEvent.made) occurrences or \(RecurrenceBound.perEvent.periods) periods of its rule)"
            return "“\(master.summary)”: its RRULE recurs more than \(bound); occurrences after \(last.text) are left out"
        }
        return (found, cut)
    }
}

/// A RANGE=THISANDFUTURE override: the occurrences after its RECURRENCE-ID move as it moved its own
/// (by the same wall-clock time), last as long as it does and take its summary (RFC 5545 §3.2.13).
private struct ChangeFromHereOn {
    let override: ICalEvent
    let from: Date
    let shift: Shift
    let length: OccurrenceLength

    init?(_ override: ICalEvent, zone: LocalTimeZone) {
        guard let id = override.recurrenceID, let start = override.times?.start,
              let from = id.instant(in: zone), let to = start.instant(in: zone) else { return nil }
        self.override = override
        self.from = from
        shift = id.hasSameAnchor(as: start) && id.isDate == start.isDate
            ? .wall(start.wallSeconds - id.wallSeconds) : .exact(Int(to.timeIntervalSince(from)))
        length = override.length(zone: zone)
    }

    /// The shift in seconds, at its smallest and at its largest (an hour's change of offset either way).
    var earliestShift: Int {
        switch shift {
        case .wall(let seconds): seconds - 3_600
        case .exact(let seconds): seconds
        }
    }

    var latestShift: Int {
        switch shift {
        case .wall(let seconds): seconds + 3_600
        case .exact(let seconds): seconds
        }
    }

    func span(movedFrom start: ICalTime, zone: LocalTimeZone) -> Range<Date>? {
        switch shift {
        case .wall(let seconds): length.span(from: start.addingWall(seconds: seconds), zone: zone)
        case .exact(let seconds): start.instant(in: zone).flatMap {
            length.span(from: ICalTime(instant: $0.addingTimeInterval(TimeInterval(seconds))), zone: zone)
        }
        }
    }

    enum Shift {
        case wall(Int)
        case exact(Int)
    }
}

/// How long each occurrence of an event lasts.
enum OccurrenceLength {
    /// Whole local days, for dates: to the local midnight after the last day.
    case days(Int)
    /// On the wall clock of the start's zone: a 22:00-07:00 night stays one across daylight-saving changes.
    case wall(Int)
    /// Exact seconds (DURATION, or a start and end in different zones).
    case exact(Int)

    /// The longest an occurrence may last, whatever day it falls on.
    var longestSeconds: Int {
        switch self {
        case .days(let days): abs(days) * 86_400 + 3_600
        case .wall(let seconds): abs(seconds) + 3_600
        case .exact(let seconds): abs(seconds)
        }
    }

    func span(from start: ICalTime, zone: LocalTimeZone) -> Range<Date>? {
        guard let begin = start.instant(in: zone) else { return nil }
        let end: Date? = switch self {
        case .days(let days): zone.startOfDay(zone.localDate(of: begin).adding(days: days))
        case .wall(let seconds): start.addingWall(seconds: seconds).instant(in: zone)
        case .exact(let seconds): begin.addingTimeInterval(TimeInterval(seconds))
        }
        // An end before the start (named by `EventCheck`) spans from the end to the start.
        guard let end, begin != end else { return nil }
        return min(begin, end)..<max(begin, end)
    }
}

extension ICalEvent {
    /// DTSTART and DTEND as `EventCheck` reads them (a DATE start with a DATE-TIME end, …).
    var times: (start: ICalTime, end: ICalTime?)? { EventCheck.times(of: self) }

    /// DTEND less DTSTART (DURATION when there is no DTEND; a day for a date, nothing for a time).
    func length(zone: LocalTimeZone) -> OccurrenceLength {
        guard let (start, end) = times else { return .exact(0) }
        if let end {
            if start.isDate { return .days(Int((Double(end.wallSeconds - start.wallSeconds) / 86_400).rounded())) }
            if start.hasSameAnchor(as: end) { return .wall(end.wallSeconds - start.wallSeconds) }
            guard let first = start.instant(in: zone), let last = end.instant(in: zone) else { return .exact(0) }
            return .exact(Int(last.timeIntervalSince(first)))
        }
        if let seconds = durationSeconds { return start.isDate ? .days(seconds / 86_400) : .exact(seconds) }
        return start.isDate ? .days(1) : .exact(0)
    }

    /// The event's own DTSTART to its end, once.
    func ownSpan(in zone: LocalTimeZone) -> Range<Date>? {
        times.flatMap { length(zone: zone).span(from: $0.start, zone: zone) }
    }

    /// DTSTART, the RRULE starts over `span` (from the last before it to the first at or after its
    /// end, within `bound`) and the RDATEs (with a period's end), less the `excluded` (EXDATEs), each
    /// start once, in time order; and the rule's walk.
    func occurrenceStarts(from first: ICalTime, over span: Range<Date>, excluded: RecurrenceSet, zone: LocalTimeZone,
                          bound: RecurrenceBound) -> (starts: [ExtraDate], rule: RuleWalk) {
        // A day either way on the wall clock covers any zone's offset.
        func wall(_ instant: Date, _ days: Int) -> ICalTime {
            var time = ICalTime(instant: instant.addingTimeInterval(TimeInterval(days * 86_400)))
            (time.anchor, time.isDate) = (first.anchor, first.isDate)
            return time
        }
        let limit = span.upperBound
        let walk = ruleStarts(from: first, walkFrom: wall(span.lowerBound, -1), walkTo: wall(limit, 1), bound: bound) {
            ($0.instant(in: zone) ?? limit) < limit
        }
        var starts = [ExtraDate(start: first)] + walk.starts.map { ExtraDate(start: $0) } + extraDates
        var seen = Set<Date>()
        starts = starts.compactMap { date -> (Date, ExtraDate)? in
            guard let begin = date.start.instant(in: zone), !excluded.contains(date.start), seen.insert(begin).inserted else { return nil }
            return (begin, date)
        }.sorted { $0.0 < $1.0 }.map(\.1)
        return (starts, walk)
    }
}

/// Calendar times that name occurrences (RECURRENCE-IDs, EXDATEs, starts), matched as calendar apps
/// match them: date-times by instant, and by the date as written where either side is a date (an
/// all-day series whose override Exchange names by a date-time at midnight in a Windows zone).
struct RecurrenceSet {
    private let zone: LocalTimeZone
    private var instants = Set<Date>()
    private var dates = Set<RecurrenceKey>()
    private var datesOfTimes = Set<RecurrenceKey>()

    init(_ times: [ICalTime], zone: LocalTimeZone) {
        self.zone = zone
        for time in times {
            if time.isDate {
                dates.insert(RecurrenceKey(dateOf: time))
            } else {
                datesOfTimes.insert(RecurrenceKey(dateOf: time))
                if let instant = time.instant(in: zone) { instants.insert(instant) }
            }
        }
    }

    func contains(_ time: ICalTime) -> Bool {
        let date = RecurrenceKey(dateOf: time)
        if time.isDate { return dates.contains(date) || datesOfTimes.contains(date) }
        return dates.contains(date) || time.instant(in: zone).map(instants.contains) ?? false
    }
}

/// A calendar time as written: what two versions of one override share.
struct RecurrenceKey: Hashable {
    let year, month, day: Int
    /// Seconds into the day and the zone (TZID, "Z" or "" for floating); nil for a date.
    let time: Int?
    let zone: String?

    init(_ value: ICalTime) {
        (year, month, day) = (value.year, value.month, value.day)
        time = value.isDate ? nil : value.hour * 3_600 + value.minute * 60 + value.second
        zone = switch value.anchor {
        case .utc: "Z"
        case .zone(_, let tzid, _): tzid
        case .floating: ""
        }
    }

    /// Only the date as written.
    init(dateOf value: ICalTime) {
        (year, month, day) = (value.year, value.month, value.day)
        (time, zone) = (nil, nil)
    }
}

extension ICalTime {
    /// The instant of a calendar time: libical for UTC and zoned times, `zone` (the user's) for
    /// floating times and dates (midnight).
    func instant(in zone: LocalTimeZone) -> Date? {
        if let seconds = unixTime { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        let wall = isDate ? WallTime(secondsOfDay: 0) : WallTime(hour: hour, minute: minute, second: second)
        return zone.instant(of: date, at: wall)
    }
}
