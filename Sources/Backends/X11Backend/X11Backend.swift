import FoundationEssentials
import ScreenTimeCore

/// Chooses the X11 focus source for the running window manager.
public enum X11Backend {
    /// EWMH when the window manager announces `_NET_ACTIVE_WINDOW`, else polling the input focus.
    /// The reason is for the log and `doctor`.
    /// `burstWindow`: how long EWMH reads wait for the rest of a window manager's burst of changes.
    public static func makeFocusSource(connection: X11Connection, burstWindow: TimeInterval = 0,
                                       clock: @escaping () -> Date) throws -> (FocusSource, reason: String) {
        let capabilities = try WMCapabilities.probe(connection)
        if capabilities.supportsActiveWindow {
            let name = capabilities.windowManagerName ?? "unnamed window manager"
            return (try EWMHFocusSource(connection: connection, burstWindow: burstWindow, clock: clock),
                    reason: "\(name) supports _NET_ACTIVE_WINDOW")
        }
        let reason = capabilities.hasEWMH
            ? "window manager does not list _NET_ACTIVE_WINDOW in _NET_SUPPORTED; polling the input focus"
            : "no EWMH window manager (_NET_SUPPORTING_WM_CHECK absent); polling the input focus"
        return (try PollingFocusSource(connection: connection), reason: reason)
    }
}
