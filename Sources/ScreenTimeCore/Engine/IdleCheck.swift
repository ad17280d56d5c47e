import FoundationEssentials

/// Turns idle-time readings into activity changes and the time of the next reading, so the
/// agent reads the idle counter only when something can have changed: while active, exactly
/// when the threshold would be crossed; while idle, every few seconds to notice the return
/// (the return is backdated to the real last input, so no time is lost).
public struct IdleCheck: Equatable, Sendable {
    public var active = true
    /// How often to look for the user's return while idle.
    public var returnPoll: TimeInterval = 5

    public init() {}

    public struct Outcome: Equatable, Sendable {
        /// The change and when it really happened; nil when nothing changed.
        public var change: (active: Bool, at: Date)?
        public var nextCheck: Date

        public static func == (a: Outcome, b: Outcome) -> Bool {
            a.nextCheck == b.nextCheck && a.change?.active == b.change?.active && a.change?.at == b.change?.at
        }
    }

    public mutating func evaluate(idleSeconds: TimeInterval, screenSaverActive: Bool, threshold: TimeInterval,
                                  now: Date) -> Outcome {
        let nowActive = !screenSaverActive && idleSeconds < threshold
        var change: (Bool, Date)?
        if nowActive != active {
            active = nowActive
            let lastInput = now.addingTimeInterval(-idleSeconds)
            change = (nowActive, nowActive ? lastInput : (screenSaverActive ? min(now, lastInput.addingTimeInterval(threshold)) : lastInput.addingTimeInterval(threshold)))
        }
        let next = nowActive ? now.addingTimeInterval(threshold - idleSeconds) : now.addingTimeInterval(returnPoll)
        return Outcome(change: change, nextCheck: next)
    }
}
