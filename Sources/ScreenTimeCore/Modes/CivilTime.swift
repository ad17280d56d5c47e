import FoundationEssentials

/// A calendar date with no time zone: what a user types (`2026-03-14`) and what a local clock shows.
/// Day arithmetic uses the proleptic Gregorian calendar (Hinnant's days-from-civil algorithm), so no
/// Foundation `Calendar` is needed.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
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
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO weekday 4).
        let iso = ((daysSinceEpoch + 3) % 7 + 7) % 7 + 1
        return Weekday(rawValue: iso)!
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whether the fields name a real day (not 2026-02-30).
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return LocalDate(daysSinceEpoch: daysSinceEpoch) == self
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// `2026-03-14`
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
}

/// A time of day on a local clock, to the second.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since local midnight, 0..<86400.
    public let secondsOfDay: Int

    public init(hour: Int, minute: Int, second: Int = 0) {
        secondsOfDay = hour * 3600 + minute * 60 + second
    }

    /// Wraps around the clock, so `-3600` is 23:00.
    public init(secondsOfDay: Int) {
        self.secondsOfDay = ((secondsOfDay % 86_400) + 86_400) % 86_400
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }
    public var second: Int { secondsOfDay % 60 }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.secondsOfDay < b.secondsOfDay }

    /// `23:05`, or `23:05:30` when seconds are set.
    public var description: String {
        let hm = "\(pad(hour, 2)):\(pad(minute, 2))"
        return second == 0 ? hm : hm + ":" + pad(second, 2)
    }
}

/// ISO weekday numbering: Monday is 1.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `mon`, `tue`, ...
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// What a local clock and calendar show at one instant.
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    public var time: WallTime

    public init(date: LocalDate, time: WallTime) {
        self.date = date
        self.time = time
    }

    /// `2026-03-14 09:00`, the form the CLI prints and accepts.
    public var description: String { "\(date) \(time)" }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
