/// What a provider tells the agent when the compositor reports focus: a window other than the
/// last one told (or the same one now with another app id) is `.focused`, the same window with
/// another title `.titleChanged`, the same again nothing. Compositors repeat themselves (a title
/// change re-announces the active window).
public struct FocusChangeFilter: Sendable {
    /// The focus last told, with the title as it was passed on.
    public private(set) var reported: WindowFacts?

    public init() {}

    /// The event to pass on for focus now at `facts` (nil: no window has focus), if any.
    public mutating func change(to facts: WindowFacts?) -> FocusEvent? {
        guard let facts else {
            guard reported != nil else { return nil }
            reported = nil
            return .focused(nil)
        }
        defer { reported = facts }
        guard let reported, reported.window == facts.window, reported.wmClass == facts.wmClass else { return .focused(facts) }
        return reported.title == facts.title ? nil : .titleChanged(facts)
    }

    /// Takes `facts` as told without an event (the focus asked for at connect).
    public mutating func assume(_ facts: WindowFacts?) {
        reported = facts
    }
}
