import FoundationEssentials
import ScreenTimeCore
import X11Backend

/// The agent's X11 backends on one connection: focus, window control and idle time.
final class X11Session {
    let connection: X11Connection
    let focus: FocusSource
    let focusReason: String
    let windows: EWMHWindowControl
    let idle: X11IdleWatch
    /// Whether a window's title is needed (its app has a title rule): titles cost round trips.
    private let needsTitle: (WindowFacts) -> Bool

    init(displayName: String?, idleThreshold: TimeInterval, needsTitle: @escaping (WindowFacts) -> Bool) throws {
        connection = try X11Connection(displayName: displayName)
        (focus, focusReason) = try X11Backend.makeFocusSource(connection: connection)
        (focus as? EWMHFocusSource)?.needsTitle = needsTitle
        windows = EWMHWindowControl(connection: connection)
        idle = try X11IdleWatch(connection: connection, threshold: idleThreshold)
        self.needsTitle = needsTitle
    }

    /// The title rules changed: the focused window's title may be needed now, or no longer.
    func titleRulesChanged() {
        (focus as? EWMHFocusSource)?.needsTitleChanged()
    }

    /// Minimizes every normal window that counts as `app` (`identify` names a window's app, title
    /// rules included: a YouTube tab's window is `youtube`, not the browser). Titles are read only
    /// where needed.
    func minimize(_ app: AppID, identify: (WindowFacts) -> AppID) throws {
        let candidates = try windows.clientWindows { $0.role == .normal && needsTitle($0) }
        for window in candidates where window.role == .normal && identify(window) == app {
            if try !windows.isMinimized(window.window) { try windows.minimize(window.window) }
        }
    }
}
