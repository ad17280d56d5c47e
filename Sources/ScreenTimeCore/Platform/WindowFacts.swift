/// A platform window handle (an X11 XID, a sway con_id...), opaque to the core.
public struct WindowID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// Whether a window belongs to the user's apps or to the desktop itself. Shell windows
/// (desktop, dock, panel, notification, splash, lock screen, the session's dialogs) are never
/// counted as an app and never touched.
public enum WindowRole: String, Sendable {
    case normal
    case shell
}

/// What the platform can tell about one top-level client window, read once per change.
public struct WindowFacts: Equatable, Sendable {
    public var window: WindowID
    /// WM_CLASS class part (`Firefox`), or Wayland app_id.
    public var wmClass: String?
    /// WM_CLASS instance part (`Navigator`).
    public var wmInstance: String?
    /// The window title: untrusted text.
    public var title: String
    /// `_NET_WM_PID`, when set.
    public var pid: Int32?
    /// Basename of the process's executable (`/proc/PID/exe`), when readable.
    public var executable: String?
    public var role: WindowRole

    public init(window: WindowID, wmClass: String?, wmInstance: String? = nil, title: String = "",
                pid: Int32? = nil, executable: String? = nil, role: WindowRole = .normal) {
        self.window = window
        self.wmClass = wmClass
        self.wmInstance = wmInstance
        self.title = title
        self.pid = pid
        self.executable = executable
        self.role = role
    }
}
