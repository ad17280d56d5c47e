import FoundationEssentials

/// Decides from one reading of the idle time and the screen saver whether the user is active,
/// and when a change really happened: going idle at the last input plus the threshold (or when
/// the screen saver started, if sooner), coming back at the last input. Sources woken by the X
/// server on each change only need the decision; a source that must poll also gets the time of
/// its next reading: while active, exactly when the threshold would be crossed; while idle, every
/// `returnPoll` to notice the return.
public struct IdleCheck: Equatable, Sendable {
    public var active = true
    /// How often a polling source looks for the user's return while idle.
    public var returnPoll: TimeInterval = 5

    public init() {}

    public struct Outcome: Equatable, Sendable {
        /// The change; nil when nothing changed.
        public var transition: IdleTransition?
        /// When a polling source should read again.
        public var nextCheck: Date
    }

    public mutating func evaluate(idleSeconds: TimeInterval, screenSaverActive: Bool, threshold: TimeInterval,
                                  now: Date) -> Outcome {
        let nowActive = !screenSaverActive && idleSeconds < threshold
        let lastInput = now.addingTimeInterval(-idleSeconds)
        var transition: IdleTransition?
        if nowActive != active {
            active = nowActive
            if nowActive {
                transition = .becameActive(at: lastInput)
            } else {
                let crossed = lastInput.addingTimeInterval(threshold)
                transition = .becameIdle(at: screenSaverActive ? min(now, crossed) : crossed)
            }
        }
        let next = nowActive ? now.addingTimeInterval(threshold - idleSeconds) : now.addingTimeInterval(returnPoll)
        return Outcome(transition: transition, nextCheck: next)
    }
}
