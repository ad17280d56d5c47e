import FoundationEssentials

/// Bedtime and wake time that place Wind Down, Sleep and Wake Up, and where they came from.
public struct SleepTimes: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        /// The configured defaults: fewer than `BedtimeLearner.nightsNeeded` nights known.
        case defaults
        /// Learned from this many nights (at most `BedtimeLearner.nightsAveraged`).
        case learned(nights: Int)
        /// Set by the user.
        case pinned
    }

    public var bedtime: WallTime
    public var wakeTime: WallTime
    public var bedtimeSource: Source
    public var wakeTimeSource: Source

    public init(bedtime: WallTime, wakeTime: WallTime, bedtimeSource: Source = .pinned, wakeTimeSource: Source = .pinned) {
        self.bedtime = bedtime
        self.wakeTime = wakeTime
        self.bedtimeSource = bedtimeSource
        self.wakeTimeSource = wakeTimeSource
    }

    public static let defaults = SleepTimes(bedtime: WallTime(hour: 23, minute: 0), wakeTime: WallTime(hour: 7, minute: 0),
                                            bedtimeSource: .defaults, wakeTimeSource: .defaults)
}

/// One night's sleep as read from the activity record.
public struct NightSleep: Hashable, Sendable {
    /// The local date of the evening the night belongs to.
    public var evening: CivilDate
    public var asleep: Date
    public var awake: Date
}

/// Learns bedtime and wake time from recorded activity: the longest inactive stretch of each night is
/// sleep; the last 14 such nights are averaged on the clock circle.
public struct BedtimeLearner: Sendable {
    public static let nightsAveraged = 14
    public static let nightsNeeded = 3
    /// A night runs from 18:00 to 14:00 the next day: its sleep is an inactive stretch inside it (so a
    /// day away from the computer after a short morning session is not taken for sleep).
    public static let nightBegins = WallTime(hour: 18, minute: 0)
    public static let nightEnds = WallTime(hour: 14, minute: 0)
    /// Shorter stretches are not sleep (a night at the desk); longer ones are time away.
    public static let shortestSleep: TimeInterval = 3 * 3600
    public static let longestSleep: TimeInterval = 16 * 3600

    public var defaults: SleepTimes
    public var pinnedBedtime: WallTime?
    public var pinnedWakeTime: WallTime?

    public init(defaults: SleepTimes = .defaults, pinnedBedtime: WallTime? = nil, pinnedWakeTime: WallTime? = nil) {
        self.defaults = defaults
        self.pinnedBedtime = pinnedBedtime
        self.pinnedWakeTime = pinnedWakeTime
    }

    /// The nights found in `activity` (intervals of use, any order, may overlap) that ended by `now`,
    /// oldest first.
    ///
    /// Sleep is a gap between two recorded activities, so a night with no record after it (the
    /// computer stayed off) is not guessed at.
    public func nights(activity: [Range<Date>], now: Date, zone: LocalTimeZone) -> [NightSleep] {
        var byEvening: [CivilDate: NightSleep] = [:]
        for gap in Self.gaps(in: activity) where gap.upperBound <= now {
            let length = gap.upperBound.timeIntervalSince(gap.lowerBound)
            guard length >= Self.shortestSleep, length <= Self.longestSleep,
                  let evening = Self.evening(containing: gap.lowerBound, zone: zone),
                  gap.upperBound <= zone.instant(of: evening.adding(days: 1), at: Self.nightEnds) else { continue }
            if let known = byEvening[evening], known.awake.timeIntervalSince(known.asleep) >= length { continue }
            byEvening[evening] = NightSleep(evening: evening, asleep: gap.lowerBound, awake: gap.upperBound)
        }
        return byEvening.values.sorted { $0.evening < $1.evening }
    }

    /// Bedtime and wake time at `now`: pinned values, else the circular means of the last 14 nights,
    /// else (fewer than 3 nights) the defaults.
    public func sleepTimes(activity: [Range<Date>], now: Date, zone: LocalTimeZone) -> SleepTimes {
        let recent = nights(activity: activity, now: now, zone: zone).suffix(Self.nightsAveraged)
        var times = defaults
        if recent.count >= Self.nightsNeeded {
            let clock = { (instant: Date) in zone.localDateTime(of: instant).time.secondsOfDay }
            times.bedtime = ClockCircle.mean(recent.map { clock($0.asleep) }, fallback: clock(recent.last!.asleep))
            times.wakeTime = ClockCircle.mean(recent.map { clock($0.awake) }, fallback: clock(recent.last!.awake))
            times.bedtimeSource = .learned(nights: recent.count)
            times.wakeTimeSource = .learned(nights: recent.count)
        }
        if let pinnedBedtime {
            times.bedtime = pinnedBedtime
            times.bedtimeSource = .pinned
        }
        if let pinnedWakeTime {
            times.wakeTime = pinnedWakeTime
            times.wakeTimeSource = .pinned
        }
        return times
    }

    /// The inactive stretches between merged activity intervals.
    static func gaps(in activity: [Range<Date>]) -> [Range<Date>] {
        var gaps: [Range<Date>] = []
        var reach: Date?
        for interval in activity.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let end = reach, interval.lowerBound > end { gaps.append(end..<interval.lowerBound) }
            reach = max(reach ?? interval.upperBound, interval.upperBound)
        }
        return gaps
    }

    /// The evening whose night window (18:00 to 14:00 next day) holds `instant`; nil between 14:00 and 18:00.
    static func evening(containing instant: Date, zone: LocalTimeZone) -> CivilDate? {
        let local = zone.localDateTime(of: instant)
        if local.time >= nightBegins { return local.date }
        if local.time < nightEnds { return local.date.adding(days: -1) }
        return nil
    }
}

/// Averages on the 24-hour clock circle, so 23:30 and 00:30 average to 00:00.
enum ClockCircle {
    /// The time of day closest to all of `seconds` in squared distance around the circle (the circle's
    /// Fréchet mean): the arithmetic mean over the best place to cut the circle. For times bunched
    /// within a few hours, as bedtimes are, it is the vector mean without needing trigonometry.
    /// `fallback` is used for an empty list.
    static func mean(_ seconds: [Int], fallback: Int) -> WallTime {
        let day = 86_400.0
        let sorted = seconds.map { Double(((($0 % 86_400) + 86_400) % 86_400)) }.sorted()
        guard !sorted.isEmpty else { return WallTime(secondsOfDay: fallback) }
        var best: (cost: Double, mean: Double)?
        // Cutting the circle just before value k: values before k move one day on.
        for cut in 0..<sorted.count {
            let unrolled = sorted[cut...] + sorted[..<cut].map { $0 + day }
            let mean = unrolled.reduce(0, +) / Double(unrolled.count)
            let cost = unrolled.reduce(0) { total, value in
                let distance = abs(value - mean).truncatingRemainder(dividingBy: day)
                let around = min(distance, day - distance)
                return total + around * around
            }
            if best == nil || cost < best!.cost - 1e-6 { best = (cost, mean) }
        }
        // Rounded to the minute: the clock a person reads.
        return WallTime(secondsOfDay: Int((best!.mean / 60).rounded()) * 60)
    }
}

extension SleepTimes {
    /// `bedtime 23:30 (learned from 5 nights), wake time 07:00 (default)`.
    public var summary: String {
        func source(_ source: Source) -> String {
            switch source {
            case .defaults: return "default until 3 nights are known"
            case .learned(let nights): return "learned from \(nights) night\(nights == 1 ? "" : "s")"
            case .pinned: return "set by you"
            }
        }
        return "bedtime \(bedtime) (\(source(bedtimeSource))), wake time \(wakeTime) (\(source(wakeTimeSource)))"
    }
}
