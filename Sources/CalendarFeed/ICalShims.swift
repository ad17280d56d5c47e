import CICal
import FoundationEssentials
import Synchronization

// The only file that calls libical. Components are borrowed from an `ICalDocument`, which owns the
// parsed tree and frees it; zones that times point into are kept for the process (see `zone(named:)`).

/// A parsed .ics text: the root component and everything under it.
final class ICalDocument {
    private let root: OpaquePointer

    /// Parses `utf8` (without NUL bytes). libical is lenient: damaged lines become X-LIC-ERROR
    /// properties (see `parseProblems`) rather than failures; only text with no complete component fails.
    init(utf8: [UInt8]) throws(ICalError) {
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
        /// In one of libical's built-in zones or a VTIMEZONE's zone, kept for the process.
        case zone(OpaquePointer, tzid: String)
        /// Floating (no zone): the user's local time.
        case floating
    }

    var year, month, day, hour, minute, second: Int
    var isDate: Bool
    var anchor: Anchor

    fileprivate init(_ value: icaltimetype) {
        year = Int(value.year); month = Int(value.month); day = Int(value.day)
        hour = Int(value.hour); minute = Int(value.minute); second = Int(value.second)
        isDate = value.is_date != 0
        if icaltime_is_utc(value) != 0 {
            anchor = .utc
        } else if let zone = value.zone {
            let tzid = icaltimezone_get_tzid(zone).map { String(cString: $0) } ?? "?"
            anchor = .zone(zone, tzid: tzid)
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
        case .zone(let zone, _): value.zone = zone
        case .floating: value.zone = nil
        }
        return value
    }

    /// A UTC date-time at `unixTime`.
    init(unixTime: Int) {
        self.init(icaltime_from_timet_with_zone(time_t(unixTime), 0, icaltimezone_get_utc_timezone()))
    }

    /// The time `seconds` later on the wall clock of its own zone (as a calendar app moves a meeting
    /// from 10:00 to 12:00 across a daylight-saving change: still 12:00 on the later days).
    func addingWall(seconds: Int) -> ICalTime {
        var moved = ICalTime(icaltime_add(cValue, icaldurationtype_from_int(Int32(seconds))))
        moved.anchor = anchor
        moved.isDate = isDate
        return moved
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
        case (.zone(_, let a), .zone(_, let b)): a == b
        default: false
        }
    }

    /// Seconds since 1970 for UTC and zoned date-times (libical applies the zone's rules, VTIMEZONE
    /// or built-in); nil for floating times and dates, which the caller places in local time.
    var unixTime: Int? {
        guard !isDate else { return nil }
        switch anchor {
        case .utc: return Int(icaltime_as_timet_with_zone(cValue, icaltimezone_get_utc_timezone()))
        case .zone(let zone, _): return Int(icaltime_as_timet_with_zone(cValue, zone))
        case .floating: return nil
        }
    }
}

/// One VEVENT, borrowed from its document.
struct ICalEvent {
    fileprivate let component: OpaquePointer
    /// Keeps the tree (and its time zones) alive while the event is used.
    fileprivate let document: ICalDocument

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
        guard let property = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) else { return nil }
        return Int(icaldurationtype_as_int(icalproperty_get_duration(property)))
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
            return ExtraDate(start: start, end: start.addingWall(seconds: Int(icaldurationtype_as_int(value.period.duration))))
        }
    }

    /// TZIDs that named no VTIMEZONE and no built-in zone: such times are read as local time.
    var unknownTimeZones: [String] {
        [ICAL_DTSTART_PROPERTY, ICAL_DTEND_PROPERTY, ICAL_EXDATE_PROPERTY, ICAL_RDATE_PROPERTY, ICAL_RECURRENCEID_PROPERTY]
            .flatMap { properties(of: component, kind: $0) }
            .compactMap { tzid(of: $0) }
            .filter { zone(named: $0) == nil }
    }

    /// Starts of the RRULE recurrences from DTSTART on, as wall times of DTSTART's kind, up to the
    /// first at or after `limit` (compared by `isBeforeLimit`), and at most `cap` of them.
    func ruleStarts(from start: ICalTime, cap: Int, isBeforeLimit: (ICalTime) -> Bool) -> [ICalTime] {
        var starts: [ICalTime] = []
        for property in properties(of: component, kind: ICAL_RRULE_PROPERTY) {
            guard let iterator = icalrecur_iterator_new(icalproperty_get_rrule(property), start.cValue) else { continue }
            defer { icalrecur_iterator_free(iterator) }
            while starts.count < cap {
                let next = icalrecur_iterator_next(iterator)
                guard icaltime_is_null_time(next) == 0 else { break }
                var time = ICalTime(next)
                time.anchor = start.anchor
                time.isDate = start.isDate
                starts.append(time)
                if !isBeforeLimit(time) { break }
            }
        }
        return starts
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
        return ICalTime(time)
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
            if let zone = icalcomponent_get_timezone(current, tzid) { return sharedCopy(of: zone) }
            scope = icalcomponent_get_parent(current)
        }
        return icaltimezone_get_builtin_timezone_from_tzid(tzid) ?? windowsZones[tzid].flatMap { builtinZone(named: $0) }
    }
}

/// libical's built-in zones by IANA name (nil for a name that is none), each name looked up once:
/// libical compares a name with each of its zones in turn.
private let builtinZones = Mutex<[String: ProcessZone?]>([:])

/// VTIMEZONEs by their text (TZID and rules), each a zone kept for the process: Outlook's invitations
/// synced as one file per event each carry the same "W. Europe Standard Time", whose changes libical
/// then expands once rather than once a file. Only definitions that differ add a zone.
private let sharedZones = Mutex<[String: ProcessZone]>([:])

/// A zone that lives as long as the process (times placed in it outlive their document).
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

/// The process's zone defined as the document's `zone` is; the document's own when it cannot be copied.
private func sharedCopy(of zone: OpaquePointer) -> OpaquePointer {
    guard let definition = icaltimezone_get_component(zone), let text = icalcomponent_as_ical_string_r(definition) else { return zone }
    let key = String(cString: text)
    icalmemory_free_buffer(text)
    return sharedZones.withLock { zones in
        if let known = zones[key] { return known.zone }
        guard let clone = icalcomponent_new_clone(definition) else { return zone }
        guard let copy = icaltimezone_new() else {
            icalcomponent_free(clone)
            return zone
        }
        guard icaltimezone_set_component(copy, clone) != 0 else {
            icalcomponent_free(clone)
            icaltimezone_free(copy, 1)
            return zone
        }
        zones[key] = ProcessZone(zone: copy)
        return copy
    }
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
