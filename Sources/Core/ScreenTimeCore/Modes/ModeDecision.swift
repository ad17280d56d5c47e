import FoundationEssentials

/// `screentime mode NAME`: the user's own choice, held until `until` if given, else until the next
/// scheduled boundary (the first instant after `since` at which schedule, calendar or time of day
/// would change what is in force).
public struct ManualSwitch: Hashable, Sendable {
    public var mode: Mode
    public var since: Date
    public var until: Date?

    public init(mode: Mode, since: Date, until: Date? = nil) {
        self.mode = mode
        self.since = since
        self.until = until
    }
}

/// Why a mode is active, in the order of precedence.
public enum ModeReason: Hashable, Sendable {
    case cheatDay(CheatDayBooking)
    /// The user's switch, with the instant it ends (nil: nothing ahead ends it).
    case manual(ManualSwitch, endsAt: Date?)
    case scheduled(ScheduleEntry)
    case calendar(summary: String, source: String)
    case automatic(AutomaticCause)
    case standard

    /// One line for `status`, in the user's local time.
    public func explanation(zone: LocalTimeZone) -> String {
        switch self {
        case .cheatDay(let booking) where booking.pause != nil:
            return "Paused until \(zone.formatMinute(booking.end)) (screentime pause): no limits or modes, time still counted"
        case .cheatDay(let booking):
            return "Cheat Day booked until \(zone.formatMinute(booking.end))"
        case .manual(let manual, let end):
            let until = end.map { " until \(zone.formatMinute($0))" } ?? ""
            return "you switched at \(zone.formatMinute(manual.since))\(until)"
        case .scheduled(let entry):
            return "scheduled: \(entry)"
        case .calendar(let summary, let source):
            return "calendar event “\(summary)” in \(source)"
        case .automatic(.beforeBedtime(let bedtime)):
            return "automatic: before your bedtime at \(bedtime)"
        case .automatic(.afterWindDown(let started)):
            return "automatic: Wind Down began at \(zone.formatMinute(started))"
        case .automatic(.bedtimeSaid(let at)):
            return "you went to bed at \(zone.formatMinute(at))"
        case .automatic(.aroundWakeTime(let wake)):
            return "automatic: around your wake time at \(wake)"
        case .standard:
            return "always on when no other mode is active"
        }
    }
}

/// A change ahead: at `at`, `mode` starts because of `reason`.
public struct ModeChange: Hashable, Sendable {
    public var at: Date
    public var mode: Mode
    public var reason: ModeReason

    public init(at: Date, mode: Mode, reason: ModeReason) {
        self.at = at
        self.mode = mode
        self.reason = reason
    }
}

/// What `status` needs: the mode now, why, since when, and what comes next.
public struct ModeDecision: Hashable, Sendable {
    public var mode: Mode
    public var reason: ModeReason
    /// When the mode began, if within the resolver's look-back (two days).
    public var since: Date?
    /// The next instant the mode changes; nil when nothing known changes it within a year.
    public var next: ModeChange?
    /// In Productivity: the break rhythm.
    public var productivityBreak: ProductivityBreakState?

    public init(mode: Mode, reason: ModeReason, since: Date? = nil, next: ModeChange? = nil,
                productivityBreak: ProductivityBreakState? = nil) {
        self.mode = mode
        self.reason = reason
        self.since = since
        self.next = next
        self.productivityBreak = productivityBreak
    }
}

/// A stretch of one mode, from a timeline.
public struct ModeSegment: Hashable, Sendable {
    public var mode: Mode
    /// The reason at the segment's start (it may change within the segment while the mode does not).
    public var reason: ModeReason
    public var start: Date
    public var end: Date
}
