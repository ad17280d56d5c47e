import FoundationEssentials

// Calendar dates are `CivilDate` (Model/LocalTimeZone.swift); the modes also need weekdays,
// validity and day counts.
extension CivilDate: Hashable {
    /// Days since 1970-01-01.
    public init(daysSinceEpoch days: Int) { self.init(localSeconds: Double(days) * 86_400) }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO weekday 4).
        Weekday(rawValue: ((daysSinceEpoch + 3) % 7 + 7) % 7 + 1)!
    }

    /// Whether the fields name a real day (not 2026-02-30).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && CivilDate(daysSinceEpoch: daysSinceEpoch) == self
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(daysSinceEpoch) }
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
        let hm = "\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2))"
        return second == 0 ? hm : hm + ":" + zeroPadded(second, 2)
    }
}

/// ISO weekday numbering: Monday is 1.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `mon`, `tue`, ...
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    /// `Monday`, `Tuesday`, ...
    public var name: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// What a local clock and calendar show at one instant.
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    public var time: WallTime

    public init(date: CivilDate, time: WallTime) {
        self.date = date
        self.time = time
    }

    /// `2026-03-14 09:00`, the form the CLI prints and accepts.
    public var description: String { "\(date) \(time)" }
}

func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
