import FoundationEssentials
import ScreenTimeCore

/// Tells which window has focus on X11: EWMH events, or polling where the window manager has
/// no EWMH (a source that must poll says when through `nextPoll(after:)`).
public protocol FocusSource: AnyObject {
    /// Shown by `doctor` and logged when the backend is chosen.
    var backendName: String { get }
    /// A descriptor to poll for readability, or -1 when the source only polls.
    var pollDescriptor: Int32 { get }
    /// Reads whatever is pending, without blocking.
    func drainEvents() throws -> [FocusEvent]
    /// The focused client window now.
    func currentFocus() throws -> WindowFacts?
    /// When the source wants to be asked again although its descriptor stayed quiet (polling fallback).
    func nextPoll(after now: Date) -> Date?
    /// The source waits for the rest of a burst of events before it reads (until `nextPoll`): the
    /// descriptor's input is not polled meanwhile.
    var isHoldingReads: Bool { get }
}

extension FocusSource {
    public var isHoldingReads: Bool { false }
}
