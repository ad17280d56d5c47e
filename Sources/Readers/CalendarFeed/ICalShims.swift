import CICal
import FoundationEssentials
import ScreenTimeCore
import Synchronization

// The only file that calls libical. Components are borrowed from an `ICalDocument`, which owns the
// parsed tree and frees it; zones that times point into are kept for the process (see `zone(named:)`).

/// A parsed .ics text: the root component and everything under it.
final class ICalDocument {
    private let root: OpaquePointer
    /// The years times are placed in their zones for: a VTIMEZONE's changes are expanded over these
    /// (see `ZoneYears`).
    fileprivate let zoneYears: ZoneYears
    /// The file's own VTIMEZONE definitions in use, each once, and those refused with why (by TZID).
    fileprivate var placedZones: [OpaquePointer: OpaquePointer?] = [:]
    private(set) var refusedZones: [(tzid: String, reason: String)] = []
    private var refusedTZIDs = Set<String>()

    /// Parses `utf8` (without NUL bytes), whose times are read for `window`. libical is lenient:
    /// damaged lines become X-LIC-ERROR properties (see `parseProblems`) rather than failures; only
    /// text with no complete component fails.
    init(utf8: [UInt8], window: Range<Date>) throws(ICalError) {
        zoneYears = ZoneYears(window)
        icalerror_set_errors_are_fatal(0)
        icalerror_clear_errno()
        let parsed = (utf8 + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { icalparser_parse_string($0.baseAddress) }
        }
        guard let root = parsed else {
            let code = icalerrno_return().pointee
            let detail = code == ICAL_NO_ERROR ? "there is no BEGIN:VCALENDAR" : String(cString: icalerror_strerror(code))
            throw ICalError(message: "no calendar found: \(detail)")
        }
        self.root = root
    }

    fileprivate func refuse(_ tzid: String, _ reason: String) {
        if refusedTZIDs.insert(tzid).inserted { refusedZones.append((tzid, reason)) }
    }

    func isRefused(_ tzid: String) -> Bool { refusedTZIDs.contains(tzid) }

    deinit { icalcomponent_free(root) }

    /// The VEVENTs of every VCALENDAR in the text, and those outside any (libical puts several
    /// top-level components under an XROOT).
    var events: [ICalEvent] {
        if icalcomponent_isa(root) == ICAL_VEVENT_COMPONENT { return [ICalEvent(component: root, document: self)] }
        let outside = icalcomponent_isa(root) == ICAL_XROOT_COMPONENT ? children(of: root, kind: ICAL_VEVENT_COMPONENT) : []
        return (calendars.flatMap { children(of: $0, kind: ICAL_VEVENT_COMPONENT) } + outside).map { ICalEvent(component: $0, document: self) }
    }

    /// libical's messages about lines it could not read (X-LIC-ERROR), anywhere in the tree, component
    /// by component in the order of the text, each with the UID of the component it is in.
    var parseProblems: [ICalParseProblem] {
        var problems: [ICalParseProblem] = []
        func visit(_ component: OpaquePointer, uid inherited: String?) {
            // The component's own UID property: icalcomponent_get_uid of a VCALENDAR answers its first event's.
            let uid = icalcomponent_get_first_property(component, ICAL_UID_PROPERTY)
                .flatMap { icalproperty_get_uid($0) }.map { String(cString: $0) } ?? inherited
            for property in properties(of: component, kind: ICAL_XLICERROR_PROPERTY) {
                if let text = icalproperty_get_xlicerror(property) { problems.append(ICalParseProblem(message: String(cString: text), uid: uid)) }
            }
            for child in children(of: component, kind: ICAL_ANY_COMPONENT) { visit(child, uid: uid) }
        }
        visit(root, uid: nil)
        return problems
    }

    private var calendars: [OpaquePointer] {
        icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT ? [root] : children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
    }
}

/// A line libical skipped, in its words, and the UID of the event (or other component) it was in.
struct ICalParseProblem {
    let message: String
    let uid: String?
}

/// Something libical refused, in its words.
struct ICalError: Error {
    let message: String
}

/// A date or date-time value as written, with how to place it in time.
struct ICalTime {
    enum Anchor {
        case utc
        /// In one of libical's built-in zones or a VTIMEZONE's zone, kept for the process; times after
        /// the `horizon` year are placed with the offset of their day in that year (see `unixTime`).
        case zone(OpaquePointer, tzid: String, horizon: Int)
        /// Floating (no zone): the user's local time.
        case floating
    }

    var year, month, day, hour, minute, second: Int
    var isDate: Bool
    var anchor: Anchor

    fileprivate init(_ value: icaltimetype, horizon: Int = ZoneYears.latest) {
        year = Int(value.year); month = Int(value.month); day = Int(value.day)
        hour = Int(value.hour); minute = Int(value.minute); second = Int(value.second)
        isDate = value.is_date != 0
        if icaltime_is_utc(value) != 0 {
            anchor = .utc
        } else if let zone = value.zone {
            let tzid = icaltimezone_get_tzid(zone).map { String(cString: $0) } ?? "?"
            anchor = .zone(zone, tzid: tzid, horizon: horizon)
        } else {
            anchor = .floating
        }
    }

    fileprivate var cValue: icaltimetype {
        var value = icaltime_null_time()
        value.year = Int32(year); value.month = Int32(month); value.day = Int32(day)
        value.hour = Int32(hour); value.minute = Int32(minute); value.second = Int32(second)
        value.is_date = isDate ? 1 : 0
        switch anchor {
        case .utc: value.zone = icaltimezone_get_utc_timezone()
        case .zone(let zone, _, _): value.zone = zone
        case .floating: value.zone = nil
        }
        return value
    }

    /// A UTC date-time at `instant`, within the years 1 to 9999.
    init(instant: Date) {
        let seconds = instant.timeIntervalSince1970
        let bounded = seconds.isNaN ? 0 : min(max(seconds.rounded(.down), Double(Self.wallRange.lowerBound)), Double(Self.wallRange.upperBound))
        self.init(icaltime_from_timet_with_zone(time_t(bounded), 0, icaltimezone_get_utc_timezone()))
    }

    /// The time `seconds` later on the wall clock of its own zone (as a calendar app moves a meeting
    /// from 10:00 to 12:00 across a daylight-saving change: still 12:00 on the later days), kept
    /// within the years 1 to 9999 whatever `seconds` is (libical's durations are 32-bit: a length of
    /// 100 years, a mistyped end, trapped once).
    func addingWall(seconds: Int) -> ICalTime {
        let (sum, overflow) = wallSeconds.addingReportingOverflow(seconds)
        let wall = overflow ? (seconds < 0 ? Self.wallRange.lowerBound : Self.wallRange.upperBound)
            : min(max(sum, Self.wallRange.lowerBound), Self.wallRange.upperBound)
        var moved = ICalTime(icaltime_from_timet_with_zone(time_t(wall), 0, nil))
        moved.anchor = anchor
        moved.isDate = isDate
        return moved
    }

    /// 0001-01-01 00:00 to 9999-12-31 23:59:59 as wall seconds since 1970.
    private static let wallRange = -62_135_596_800...253_402_300_799

    /// The same wall time in `year` (a 29 February in a year without one is the 1 March after).
    func inYear(_ year: Int) -> ICalTime {
        var moved = self
        moved.year = year
        return moved.addingWall(seconds: 0)
    }

    /// The wall-clock reading as seconds, for differences between two times of one zone.
    var wallSeconds: Int {
        var value = cValue
        value.zone = nil
        return Int(icaltime_as_timet(value))
    }

    /// Whether both are read in the same zone (both UTC, both floating, or one TZID).
    func hasSameAnchor(as other: ICalTime) -> Bool {
        switch (anchor, other.anchor) {
        case (.utc, .utc), (.floating, .floating): true
        case (.zone(_, let a, _), .zone(_, let b, _)): a == b
        default: false
        }
    }

    /// Seconds since 1970 for UTC and zoned date-times (libical applies the zone's rules, VTIMEZONE
    /// or built-in); nil for floating times and dates, which the caller places in local time. A time
    /// after its zone's horizon takes the offset of its day in the horizon year: libical expands a
    /// zone's changes up to the year asked, and a year 9999 in each of thousands of zones cost
    /// seconds, for times no read reaches.
    var unixTime: Int? {
        guard !isDate else { return nil }
        switch anchor {
        case .utc: return Int(icaltime_as_timet_with_zone(cValue, icaltimezone_get_utc_timezone()))
        case .zone(let zone, _, let horizon):
            guard year > horizon else { return Int(icaltime_as_timet_with_zone(cValue, zone)) }
            let near = inYear(horizon)
            return wallSeconds - (near.wallSeconds - Int(icaltime_as_timet_with_zone(near.cValue, zone)))
        case .floating: return nil
        }
    }
}

/// One VEVENT, borrowed from its document; equal to another when both are the same component.
struct ICalEvent: Hashable {
    fileprivate let component: OpaquePointer
    /// Keeps the tree (and its time zones) alive while the event is used.
    fileprivate let document: ICalDocument

    static func == (a: ICalEvent, b: ICalEvent) -> Bool { a.component == b.component }
    func hash(into hasher: inout Hasher) { hasher.combine(component) }

    var uid: String? { icalcomponent_get_uid(component).map { String(cString: $0) } }
    var summary: String { icalcomponent_get_summary(component).map { String(cString: $0) } ?? "" }
    /// LOCATION, when the event gives one.
    var location: String? {
        icalcomponent_get_location(component).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    var isCancelled: Bool { icalcomponent_get_status(component) == ICAL_STATUS_CANCELLED }

    /// Every CATEGORIES value (the property may repeat, and each may list several, comma-separated).
    var categories: [String] {
        properties(of: component, kind: ICAL_CATEGORIES_PROPERTY)
            .compactMap { icalproperty_get_categories($0).map { String(cString: $0) } }
            .flatMap { $0.split(separator: ",").map(String.init) }
    }

    /// SEQUENCE: the revision of this version of the event (-1 when it gives none).
    var sequence: Int {
        icalcomponent_get_first_property(component, ICAL_SEQUENCE_PROPERTY).map { Int(icalproperty_get_sequence($0)) } ?? -1
    }
    /// DTSTAMP and LAST-MODIFIED in Unix seconds: which of two versions with one SEQUENCE is newer.
    var stamp: Int? { datetime(ICAL_DTSTAMP_PROPERTY)?.unixTime }
    var lastModified: Int? { datetime(ICAL_LASTMODIFIED_PROPERTY)?.unixTime }

    /// RECURRENCE-ID;RANGE=THISANDFUTURE: the override changes this occurrence and every later one.
    var changesLaterOccurrences: Bool {
        guard let property = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY),
              let range = icalproperty_get_first_parameter(property, ICAL_RANGE_PARAMETER) else { return false }
        return icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
    }

    var start: ICalTime? { datetime(ICAL_DTSTART_PROPERTY) }
    var end: ICalTime? { datetime(ICAL_DTEND_PROPERTY) }
    var recurrenceID: ICalTime? { datetime(ICAL_RECURRENCEID_PROPERTY) }

    /// DURATION in seconds, when the event gives one instead of DTEND.
    var durationSeconds: Int? {
        icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY).map { seconds(of: icalproperty_get_duration($0)) }
    }

    var exceptionDates: [ICalTime] {
        properties(of: component, kind: ICAL_EXDATE_PROPERTY).compactMap { time(of: $0) }
    }

    /// An RDATE value: a start, and for RDATE;VALUE=PERIOD the period's own end.
    struct ExtraDate {
        var start: ICalTime
        var end: ICalTime?
    }

    /// RDATE values.
    var extraDates: [ExtraDate] {
        properties(of: component, kind: ICAL_RDATE_PROPERTY).compactMap { property -> ExtraDate? in
            let value = icalproperty_get_rdate(property)
            let isPeriod = icaltime_is_null_time(value.time) != 0
            guard let start = placed(isPeriod ? value.period.start : value.time, of: property) else { return nil }
            guard isPeriod else { return ExtraDate(start: start) }
            if let end = placed(value.period.end, of: property) { return ExtraDate(start: start, end: end) }
            return ExtraDate(start: start, end: start.addingWall(seconds: seconds(of: value.period.duration)))
        }
    }

    /// TZIDs that named no VTIMEZONE and no built-in zone: such times are read as local time. Zones
    /// the file defines but that were refused are named by `ICalDocument.refusedZones` instead.
    var unknownTimeZones: [String] {
        [ICAL_DTSTART_PROPERTY, ICAL_DTEND_PROPERTY, ICAL_EXDATE_PROPERTY, ICAL_RDATE_PROPERTY, ICAL_RECURRENCEID_PROPERTY]
            .flatMap { properties(of: component, kind: $0) }
            .compactMap { tzid(of: $0) }
            .filter { zone(named: $0) == nil && !document.isRefused($0) }
    }

    /// Starts of the RRULE recurrences from `walkFrom` on, as wall times of DTSTART's kind, up to the
    /// first at or after the limit (compared by `isBeforeLimit`; `walkTo` is past it on the wall
    /// clock), within `bound`. libical walks a rule period by period of its frequency, and one call
    /// may walk a whole year of seconds to find the next match, so the walk is bounded before it
    /// starts: a rule without COUNT starts near `walkFrom` (whole periods after DTSTART, see
    /// `origin`), and the rule's UNTIL is brought forward so that it walks at most `bound.periods`.
    func ruleStarts(from start: ICalTime, walkFrom: ICalTime, walkTo: ICalTime, bound: RecurrenceBound,
                    isBeforeLimit: (ICalTime) -> Bool) -> RuleWalk {
        var walk = RuleWalk()
        for property in properties(of: component, kind: ICAL_RRULE_PROPERTY) {
            var rule = icalproperty_get_rrule(property)
            let ownEnd = icaltime_is_null_time(rule.until) == 0 ? ICalTime(rule.until) : nil
            // A rule that ended before the walk costs nothing (a long export holds many).
            if let ownEnd, icaltime_compare(ownEnd.cValue, walkFrom.cValue) < 0 { continue }
            let origin = rule.count > 0 ? start : Self.origin(of: rule, from: start, before: walkFrom)
            let period = Self.shortestPeriod(of: rule)
            let left = max(0, bound.periods - walk.periods)
            let needed = max(0, walkTo.wallSeconds - origin.wallSeconds) / period + 1
            let reach = origin.addingWall(seconds: min(left, needed).multipliedReportingOverflow(by: period).partialValue)
            let boundedByBudget = left < needed && ownEnd.map { icaltime_compare($0.cValue, reach.cValue) > 0 } ?? true
            if ownEnd.map({ icaltime_compare($0.cValue, reach.cValue) > 0 }) ?? true { rule.until = reach.cValue }
            guard let iterator = icalrecur_iterator_new(rule, origin.cValue) else { continue }
            defer { icalrecur_iterator_free(iterator) }
            var made = 0
            var last = origin
            // libical made no more (its own end, or the UNTIL brought forward), or a start reached the limit.
            var exhausted = false
            var reachedLimit = false
            while walk.made < bound.made {
                let next = icalrecur_iterator_next(iterator)
                guard icaltime_is_null_time(next) == 0 else {
                    exhausted = true
                    break
                }
                made += 1
                walk.made += 1
                var time = ICalTime(next)
                time.anchor = start.anchor
                time.isDate = start.isDate
                last = time
                if time.wallSeconds < walkFrom.wallSeconds { continue }
                walk.starts.append(time)
                if !isBeforeLimit(time) {
                    reachedLimit = true
                    break
                }
            }
            let countReached = rule.count > 0 && made >= rule.count
            if !reachedLimit && !(exhausted && (!boundedByBudget || countReached)) { walk.cutAfter = walk.cutAfter ?? last }
            walk.periods += max(0, (exhausted && !countReached ? reach : last).wallSeconds - origin.wallSeconds) / period + 1
        }
        return walk
    }

    /// Where a rule without COUNT may start its walk instead of DTSTART: a whole number of its
    /// periods later, before `walkFrom`, where the rule makes the same occurrences from there on
    /// (any instant for a fixed period, a month with DTSTART's day, a year with the same calendar:
    /// leap or not, 1 January on the same weekday). The new start itself may not be an occurrence;
    /// it lies before `walkFrom`, where starts are not kept.
    private static func origin(of rule: icalrecurrencetype, from start: ICalTime, before walkFrom: ICalTime) -> ICalTime {
        guard rule.rscale == nil, walkFrom.wallSeconds > start.wallSeconds else { return start }
        let interval = max(1, Int(rule.interval))
        switch rule.freq {
        case ICAL_SECONDLY_RECURRENCE, ICAL_MINUTELY_RECURRENCE, ICAL_HOURLY_RECURRENCE, ICAL_DAILY_RECURRENCE, ICAL_WEEKLY_RECURRENCE:
            let step = shortestPeriod(of: rule)
            return start.addingWall(seconds: (walkFrom.wallSeconds - start.wallSeconds - 1) / step * step)
        case ICAL_MONTHLY_RECURRENCE:
            let months = (walkFrom.year * 12 + walkFrom.month) - (start.year * 12 + start.month) - 1
            for periods in stride(from: months / interval, to: max(0, months / interval - 12), by: -1) {
                let month = start.month - 1 + periods * interval
                var moved = start
                (moved.year, moved.month) = (start.year + month / 12, month % 12 + 1)
                if CivilDate(year: moved.year, month: moved.month, day: moved.day).isValid { return moved }
            }
            return start
        case ICAL_YEARLY_RECURRENCE:
            func calendar(_ year: Int) -> (Bool, Int) {
                (CivilDate(year: year, month: 2, day: 29).isValid, (CivilDate(year: year, month: 1, day: 1).daysSinceEpoch % 7 + 7) % 7)
            }
            let years = walkFrom.year - start.year - 1
            for periods in stride(from: years / interval, to: max(0, years / interval - 40), by: -1) {
                var moved = start
                moved.year = start.year + periods * interval
                if calendar(moved.year) == calendar(start.year) { return moved }
            }
            return start
        default:
            return start
        }
    }

    /// The shortest time one period of the rule's frequency lasts (a month at least 28 days, a year 365).
    private static func shortestPeriod(of rule: icalrecurrencetype) -> Int {
        let unit = switch rule.freq {
        case ICAL_SECONDLY_RECURRENCE: 1
        case ICAL_MINUTELY_RECURRENCE: 60
        case ICAL_HOURLY_RECURRENCE: 3_600
        case ICAL_DAILY_RECURRENCE: 86_400
        case ICAL_WEEKLY_RECURRENCE: 7 * 86_400
        case ICAL_MONTHLY_RECURRENCE: 28 * 86_400
        default: 365 * 86_400
        }
        return max(1, Int(rule.interval)) * unit
    }

    private func datetime(_ kind: icalproperty_kind) -> ICalTime? {
        icalcomponent_get_first_property(component, kind).flatMap { time(of: $0) }
    }

    private func time(of property: OpaquePointer) -> ICalTime? {
        placed(icalproperty_get_datetime_with_component(property, component), of: property)
    }

    /// A value of `property` with the zone its TZID names (libical leaves Windows zone names floating,
    /// and places IANA names in the file's VTIMEZONE).
    private func placed(_ value: icaltimetype, of property: OpaquePointer) -> ICalTime? {
        guard icaltime_is_null_time(value) == 0 else { return nil }
        var time = value
        if icaltime_is_utc(time) == 0, let tzid = tzid(of: property) { time.zone = zone(named: tzid) }
        return ICalTime(time, horizon: document.zoneYears.last)
    }

    private func tzid(of property: OpaquePointer) -> String? {
        icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER)
            .flatMap { icalparameter_get_tzid($0) }
            .map { String(cString: $0) }
    }

    /// The zone a TZID names. An IANA name libical knows is its built-in zone even when the file has a
    /// VTIMEZONE of that name, as calendar apps (and the reference) read it: current rules rather than
    /// whatever an old export copied, and one zone per process whose changes libical works out once,
    /// where each file's own VTIMEZONE would be expanded from 1970 on again. Other names (Outlook's
    /// own definitions, libical's prefixed names) are a VTIMEZONE of an enclosing component (shared
    /// by files that define it alike), else the built-in zone a prefixed name names
    /// ("/freeassociation.sourceforge.net/Europe/Berlin") or, for a Windows name ("W. Europe Standard
    /// Time"), that of the IANA zone CLDR maps it to.
    private func zone(named tzid: String) -> OpaquePointer? {
        if let builtin = builtinZone(named: tzid) { return builtin }
        var scope: OpaquePointer? = component
        while let current = scope {
            if let zone = icalcomponent_get_timezone(current, tzid) { return document.processZone(for: zone, tzid: tzid) }
            scope = icalcomponent_get_parent(current)
        }
        return icaltimezone_get_builtin_timezone_from_tzid(tzid) ?? windowsZones[tzid].flatMap { builtinZone(named: $0) }
    }
}

/// What one event's RRULE walk made: the starts kept, the recurrences libical made and the periods
/// of the rule it walked through (its work), and, when a bound stopped it before the limit, the last
/// start made.
struct RuleWalk {
    var starts: [ICalTime] = []
    var made = 0
    var periods = 0
    var cutAfter: ICalTime?
}

/// The years a document's times are placed in their zones for: from the year before the window read
/// (its VTIMEZONEs' rules are expanded from there, not from 1601) to the year after it (later times
/// take the offset of their day in that year).
struct ZoneYears {
    let first: Int
    let last: Int
    /// No horizon: the years a date-time can have.
    static let latest = 9_999

    init(_ window: Range<Date>) {
        func year(_ instant: Date) -> Int {
            CivilDate(localSeconds: min(max(instant.timeIntervalSince1970, -62_135_596_800), 253_402_300_799)).year
        }
        first = year(window.lowerBound) - 1
        last = year(window.upperBound) + 1
    }
}

/// A DURATION in seconds, worked out without libical's 32-bit sum.
private func seconds(of duration: icaldurationtype) -> Int {
    let magnitude = (Int(duration.weeks) * 7 + Int(duration.days)) * 86_400 + Int(duration.hours) * 3_600
        + Int(duration.minutes) * 60 + Int(duration.seconds)
    return duration.is_neg != 0 ? -magnitude : magnitude
}

extension ICalDocument {
    /// A file defines at most this many zones its events use: each costs its changes over the years read.
    static let zonesPerFile = 100

    /// The process's zone for the document's VTIMEZONE `zone` (see `sharedCopy`); nil when it is refused.
    fileprivate func processZone(for zone: OpaquePointer, tzid: String) -> OpaquePointer? {
        if let known = placedZones[zone] { return known }
        let found: OpaquePointer?
        if placedZones.count >= Self.zonesPerFile {
            refuse(tzid, "the file defines more than \(Self.zonesPerFile) time zones its events use; this one is not read")
            found = nil
        } else {
            switch sharedCopy(of: zone, years: zoneYears) {
            case .success(let copy): found = copy
            case .failure(let refusal):
                refuse(tzid, refusal.message)
                found = nil
            }
        }
        placedZones[zone] = found
        return found
    }
}

/// libical's built-in zones by IANA name (nil for a name that is none), each name looked up once:
/// libical compares a name with each of its zones in turn.
private let builtinZones = Mutex<[String: ProcessZone?]>([:])

/// VTIMEZONEs by their text (TZID and rules), each a zone kept for the process: Outlook's invitations
/// synced as one file per event each carry the same "W. Europe Standard Time", whose changes libical
/// then expands once rather than once a file. Only definitions that differ add a zone.
private let sharedZones = Mutex<[String: Result<ProcessZone, ICalError>]>([:])

/// A zone that lives as long as the process (times placed in it outlive their document).
/// `@unchecked Sendable` only to sit in the locked tables above: the pointer is never freed, and
/// the reader reads calendars on its one thread, so no zone is used from two threads at once.
private struct ProcessZone: @unchecked Sendable {
    let zone: OpaquePointer
}

/// libical's built-in zone of the IANA name `name` (tzdata's).
private func builtinZone(named name: String) -> OpaquePointer? {
    builtinZones.withLock { zones in
        if let known = zones[name] { return known?.zone }
        let found = icaltimezone_get_builtin_timezone(name)
        zones[name] = .some(found.map(ProcessZone.init))
        return found
    }
}

/// The process's zone defined as the document's `zone` is, its rules expanded from `years.first`
/// (see `expandedFrom`); the document's own when it cannot be copied, and a refusal naming why when
/// its rules change the offset more often than a year's seasons do.
private func sharedCopy(of zone: OpaquePointer, years: ZoneYears) -> Result<OpaquePointer, ICalError> {
    guard let definition = icaltimezone_get_component(zone), let text = icalcomponent_as_ical_string_r(definition) else { return .success(zone) }
    let key = "\(years.first)\n" + String(cString: text)
    icalmemory_free_buffer(text)
    // The document's own zone crosses the lock as a ProcessZone too: what the lock hands out must be Sendable.
    let own = ProcessZone(zone: zone)
    return sharedZones.withLock { zones -> Result<ProcessZone, ICalError> in
        if let known = zones[key] { return known }
        guard let clone = icalcomponent_new_clone(definition) else { return .success(own) }
        if let refusal = expandedFrom(years.first, clone) {
            icalcomponent_free(clone)
            zones[key] = .failure(refusal)
            return .failure(refusal)
        }
        guard let copy = icaltimezone_new() else {
            icalcomponent_free(clone)
            return .success(own)
        }
        guard icaltimezone_set_component(copy, clone) != 0 else {
            icalcomponent_free(clone)
            icaltimezone_free(copy, 1)
            return .success(own)
        }
        zones[key] = .success(ProcessZone(zone: copy))
        return .success(ProcessZone(zone: copy))
    }.map(\.zone)
}

/// Rewrites a VTIMEZONE so that libical expands its changes from `year` on, not from its first
/// DTSTART (1601 in Outlook's zones: 850 changes a zone, worked out rule by rule), or names why it
/// cannot be read: a rule that is not yearly, or recurs more than 4 times a year (one recurring
/// every minute since 1601 ran for minutes and hundreds of megabytes), more than 8 rules in force,
/// or a COUNT of more than 200 from before `year` (counted from its first DTSTART, it cannot move).
/// A yearly rule's DTSTART moves to its wall time in `year`, and a rule that ended before `year`
/// keeps only its first change: times from `year` on are placed as before, earlier ones only roughly.
private func expandedFrom(_ year: Int, _ definition: OpaquePointer) -> ICalError? {
    var rules = 0
    for observance in children(of: definition, kind: ICAL_ANY_COMPONENT) {
        let kind = icalcomponent_isa(observance) == ICAL_XDAYLIGHT_COMPONENT ? "DAYLIGHT" : "STANDARD"
        guard let start = icalcomponent_get_first_property(observance, ICAL_DTSTART_PROPERTY) else { continue }
        for property in properties(of: observance, kind: ICAL_RRULE_PROPERTY) {
            let rule = icalproperty_get_rrule(property)
            guard rule.freq == ICAL_YEARLY_RECURRENCE else {
                let name = icalrecur_freq_to_string(rule.freq).map { String(cString: $0) } ?? "?"
                return ICalError(message: "its \(kind) rule recurs FREQ=\(name), not yearly")
            }
            var first = ICalTime(icalproperty_get_dtstart(start))
            if first.year < year {
                if icaltime_is_null_time(rule.until) == 0 && Int(rule.until.year) < year {
                    icalcomponent_remove_property(observance, property)
                    icalproperty_free(property)
                    continue
                }
                if rule.count == 0 {
                    first = first.inYear(year)
                    icalproperty_set_dtstart(start, first.cValue)
                } else if rule.count > 200 {
                    return ICalError(message: "its \(kind) rule counts \(rule.count) changes from \(first.year) on")
                }
            }
            rules += 1
            guard rules <= 8 else { return ICalError(message: "more than 8 of its rules are in force at once") }
            guard let iterator = icalrecur_iterator_new(rule, first.cValue) else { continue }
            defer { icalrecur_iterator_free(iterator) }
            var fifth = icaltime_null_time()
            for _ in 0..<5 { fifth = icalrecur_iterator_next(iterator) }
            if icaltime_is_null_time(fifth) == 0, ICalTime(fifth).wallSeconds - first.wallSeconds < 366 * 86_400 {
                return ICalError(message: "its \(kind) rule recurs more than 4 times a year")
            }
        }
    }
    return nil
}

private func children(of component: OpaquePointer, kind: icalcomponent_kind) -> [OpaquePointer] {
    var found: [OpaquePointer] = []
    var child = icalcomponent_get_first_component(component, kind)
    while let current = child {
        found.append(current)
        child = icalcomponent_get_next_component(component, kind)
    }
    return found
}

private func properties(of component: OpaquePointer, kind: icalproperty_kind) -> [OpaquePointer] {
    var found: [OpaquePointer] = []
    var property = icalcomponent_get_first_property(component, kind)
    while let current = property {
        found.append(current)
        property = icalcomponent_get_next_property(component, kind)
    }
    return found
}
