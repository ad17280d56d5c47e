import ScreenTimeCore

/// A compositor's list of windows as a focus source: the subclass keeps the windows from the
/// protocol's events and names the focused one (`focusedFacts`); focus is reported once per
/// batch of events. Titles come with every window at no cost, so `needsTitle` is not consulted.
public class WaylandWindowList: WaylandClient {
    public var onFocus: ((FocusEvent) -> Void)?
    public var needsTitle: (WindowFacts) -> Bool = { _ in true }
    /// Read once per batch of the compositor's events, so a switch between two windows (one
    /// loses "active", the other gains it) is one event, not a moment without focus.
    private var focus = FocusChangeFilter()

    /// The focused window as the subclass's table says now.
    func focusedFacts() -> WindowFacts? { nil }

    public func currentFocus() throws -> WindowFacts? {
        let facts = focusedFacts()
        focus.assume(facts)
        return facts
    }

    public func titleRulesChanged() {}

    override public func handleReadable() throws {
        try super.handleReadable()
        if let event = focus.change(to: focusedFacts()) { onFocus?(event) }
    }
}
