/// The windows a compositor's events told of (identity facts read once per window, titles as they
/// change) and the focus told to the agent: what the IPC providers keep so that minimizing needs
/// no round trip and a repeated announcement is not a second focus change.
public struct WindowTable: Sendable {
    public struct Entry: Sendable {
        /// Identity facts, title empty.
        public var facts: WindowFacts
        /// Untrusted text, passed on only where a title rule may apply.
        public var title: String

        public init(facts: WindowFacts, title: String) {
            self.facts = facts
            self.title = title
        }
    }

    public var entries: [UInt64: Entry] = [:]
    public var focused: UInt64?
    private var filter = FocusChangeFilter()

    public init() {}

    /// The window's facts, with its title only where `needsTitle` says a title rule may apply.
    public func facts(of id: UInt64, needsTitle: (WindowFacts) -> Bool) -> WindowFacts? {
        guard let entry = entries[id] else { return nil }
        var facts = entry.facts
        if needsTitle(facts) { facts.title = entry.title }
        return facts
    }

    /// What to tell the agent now that the focus, its title or the title rules may have changed.
    public mutating func focusChange(needsTitle: (WindowFacts) -> Bool) -> FocusEvent? {
        filter.change(to: focused.flatMap { facts(of: $0, needsTitle: needsTitle) })
    }

    /// The focused window's facts, taken as told (asked once after connecting).
    public mutating func currentFocus(needsTitle: (WindowFacts) -> Bool) -> WindowFacts? {
        let facts = focused.flatMap { self.facts(of: $0, needsTitle: needsTitle) }
        filter.assume(facts)
        return facts
    }

    /// The windows `identify` names `app`, in id order.
    public func windows(of app: AppID, identify: (WindowFacts) -> AppID, needsTitle: (WindowFacts) -> Bool) -> [UInt64] {
        entries.keys.sorted().filter { id in facts(of: id, needsTitle: needsTitle).map(identify) == app }
    }
}
