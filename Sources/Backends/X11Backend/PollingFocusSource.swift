import FoundationEssentials
import ScreenTimeCore

/// The fallback for window managers without EWMH: asks the server for the input focus every
/// `interval` and walks from the focused window (frame, client or a child of it) to the client
/// window carrying WM_STATE.
///
/// It does not enable the connection's `WindowFactsCache` (it drains no events, and a window
/// manager without EWMH keeps no `_NET_CLIENT_LIST` to prune it by): each poll reads the focused
/// window's facts afresh, unless an EWMH focus source on the same connection enabled the cache.
public final class PollingFocusSource: FocusSource {
    public let backendName = "XGetInputFocus polling"
    public let interval: TimeInterval

    private let connection: X11Connection
    private let inspector: WindowInspector
    private var reported: WindowFacts?

    public init(connection: X11Connection, interval: TimeInterval = 1) throws {
        self.connection = connection
        self.inspector = WindowInspector(connection: connection)
        self.interval = interval
        reported = try currentFocus()
    }

    /// Nothing to wait on: the source is asked through `nextPoll(after:)`.
    public var pollDescriptor: Int32 { -1 }

    public func nextPoll(after now: Date) -> Date? { now.addingTimeInterval(interval) }

    public func currentFocus() throws -> WindowFacts? {
        let focus = try connection.display.inputFocus()
        guard let client = try inspector.clientWindow(containing: focus) else { return nil }
        return try inspector.facts(of: client)
    }

    public func drainEvents() throws -> [FocusEvent] {
        let now: WindowFacts?
        do {
            now = try currentFocus()
        } catch let error as X11Error where error.isWindowGone {
            return []  // focus moved while we looked: the next poll sees where it went
        }
        defer { reported = now }
        switch (reported, now) {
        case (nil, nil): return []
        case (let before?, let now?) where before.window == now.window:
            return before.title == now.title ? [] : [.titleChanged(now)]
        default: return [.focused(now)]
        }
    }
}
