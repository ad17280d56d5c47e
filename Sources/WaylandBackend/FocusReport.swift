import ScreenTimeCore

/// The focus as last reported, and the event a new reading makes. Read once per batch of the
/// compositor's events, so a switch between two windows (one loses "active", the other gains
/// it) is one event, not a moment without focus.
struct FocusReport {
    private(set) var last: WindowFacts?

    /// Takes `facts` as known without an event (the agent asked for the focus).
    mutating func reset(to facts: WindowFacts?) { last = facts }

    /// The event for `now` after `last`; nil when nothing the agent uses changed.
    mutating func change(to now: WindowFacts?) -> FocusEvent? {
        defer { last = now }
        if now?.window != last?.window || now?.wmClass != last?.wmClass { return .focused(now) }
        if let now, now.title != last?.title { return .titleChanged(now) }
        return nil
    }
}
