import FoundationEssentials

/// The user's time zone as the core needs it: the offset from UTC at an instant. The platform
/// answers from tzdata (localtime_r); tests use fixed and daylight-saving fakes.
public protocol LocalTimeZone {
    /// Seconds east of UTC at `instant`.
    func utcOffset(at instant: Date) -> Int
}

public struct FixedOffsetZone: LocalTimeZone {
    public var seconds: Int
    public init(seconds: Int) { self.seconds = seconds }
    public func utcOffset(at instant: Date) -> Int { seconds }
}

/// Days that start at a configurable local time (default 04:00), so a late night counts
/// toward the day it began.
public struct DayBoundary: Equatable, Sendable {
    /// Minutes after local midnight.
    public var startMinute: Int

    public init(startMinute: Int = 4 * 60) { self.startMinute = startMinute }

    /// The start of the day containing `instant`, as an instant.
    public func start(of instant: Date, in zone: LocalTimeZone) -> Date {
        let local = zone.localDateTime(of: instant)
        let date = local.time.secondsOfDay < startMinute * 60 ? local.date.adding(days: -1) : local.date
        return start(ofDay: date, in: zone)
    }

    /// The start of the next day after the one containing `instant`.
    public func end(of instant: Date, in zone: LocalTimeZone) -> Date {
        let start = start(of: instant, in: zone)
        // 26 h later is always inside the next day, whatever daylight saving did.
        return self.start(of: start.addingTimeInterval(26 * 3600), in: zone)
    }

    /// The start of the day labelled `date`: that local date at the day-start time.
    public func start(ofDay date: CivilDate, in zone: LocalTimeZone) -> Date {
        zone.instant(of: date, at: WallTime(secondsOfDay: startMinute * 60))
    }

    /// The day's label (`2026-11-29`), the local date the day started on.
    public func label(of instant: Date, in zone: LocalTimeZone) -> String {
        zone.localDate(of: start(of: instant, in: zone)).description
    }
}

/// A proleptic Gregorian date, from days since 1970-01-01 (Howard Hinnant's civil_from_days).
public struct CivilDate: Equatable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public init(localSeconds: Double) {
        let days = floorDiv(localSeconds.saturatedSeconds(.down), 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `2026-11-29`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
        guard CivilDate(localSeconds: Double(daysSinceEpoch * 86_400)) == self else { return nil }
    }

    public func adding(days: Int) -> CivilDate { CivilDate(localSeconds: Double((daysSinceEpoch + days) * 86_400)) }

    public var description: String { "\(year)-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))" }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

/// Instants as a user reads them, in their time zone.
public enum LocalTimeText {
    /// `2026-11-29T09:45:00+01:00`.
    public static func iso8601(_ instant: Date, in zone: LocalTimeZone) -> String {
        let offset = zone.utcOffset(at: instant)
        let local = (instant.timeIntervalSince1970 + Double(offset)).saturatedSeconds(.down)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        let date = CivilDate(localSeconds: Double(local))
        let sign = offset < 0 ? "-" : "+"
        return "\(date)T\(zeroPadded(seconds / 3600, 2)):\(zeroPadded(seconds % 3600 / 60, 2)):\(zeroPadded(seconds % 60, 2))"
            + "\(sign)\(zeroPadded(abs(offset) / 3600, 2)):\(zeroPadded(abs(offset) % 3600 / 60, 2))"
    }

    /// `09:45` from a time `iso8601` wrote (the status and report documents carry local ISO times).
    static func clock(ofISO8601 iso: String) -> String {
        guard let t = iso.firstIndex(of: "T") else { return iso }
        return String(iso[iso.index(after: t)...].prefix(5))
    }
}
