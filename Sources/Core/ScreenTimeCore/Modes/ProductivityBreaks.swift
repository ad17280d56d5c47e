import FoundationEssentials

/// Where the user is in Productivity's rhythm: working towards a break, or on one.
public enum ProductivityBreakState: Hashable, Sendable {
    case working(nextBreak: Date)
    case onBreak(since: Date, until: Date)

    /// When the next break is due; nil during one.
    public var nextBreak: Date? {
        if case .working(let next) = self { next } else { nil }
    }
}

/// The Productivity break: after every `every` of Productivity (or when the user asks with
/// `screentime break`), a break of `length`; the count starts again when a break ends.
public struct ProductivityBreaks: Hashable, Sendable {
    public var isEnabled = true
    public var every: TimeInterval = 3600
    public var length: TimeInterval = 5 * 60

    public init() {}

    /// Where the rhythm of a stretch that began before `lookBack` (further back than the resolver
    /// looks) is taken to start: a whole number of cycles (the time to a break and the break) from
    /// a fixed origin, so deciding again later finds the same breaks, not ones moved with the look-back.
    public func rhythmStart(before lookBack: Date) -> Date {
        let cycle = max(every, DurationBounds.breakEvery.lowerBound) + max(length, 0)
        return Date(timeIntervalSince1970: (lookBack.timeIntervalSince1970 / cycle).rounded(.down) * cycle)
    }

    /// How far apart a stored time and the instant it was written at can be read back.
    static let storedTimeSlack: TimeInterval = 0.001

    /// The state at `instant` of a Productivity stretch that began at `since`, with the breaks the user
    /// asked for at `requested` (requests during a break are ignored).
    public func state(at instant: Date, productivitySince since: Date, requested: [Date]) -> ProductivityBreakState? {
        // A time read back from the store can differ from the instant it was written at by a few
        // hundred nanoseconds (Unix seconds to Date's own reference and back): a switch or a request
        // made at this very instant counts as made now, not as just after it.
        let slackEnd = instant.addingTimeInterval(Self.storedTimeSlack)
        let since = since > instant && since <= slackEnd ? instant : since
        guard isEnabled, every > 0, instant >= since else { return nil }
        // Each turn moves on by at least the shortest rhythm the config allows, so settings made
        // by hand in code cannot make this loop endless.
        let every = max(every, DurationBounds.breakEvery.lowerBound), length = max(length, 0)
        let asked = requested.filter { $0 >= since && $0 <= slackEnd }.map { min($0, instant) }.sorted()
        var cursor = since
        while true {
            let due = cursor.addingTimeInterval(every)
            let breakStart = asked.first { $0 >= cursor && $0 < due } ?? due
            if instant < breakStart { return .working(nextBreak: breakStart) }
            let breakEnd = breakStart.addingTimeInterval(length)
            if instant < breakEnd { return .onBreak(since: breakStart, until: breakEnd) }
            cursor = breakEnd
        }
    }
}
