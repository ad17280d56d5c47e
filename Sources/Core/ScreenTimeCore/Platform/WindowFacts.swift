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
    /// Basename of the process's executable (`/proc/PID/exe`), when readable: only a name for a
    /// window without WM_CLASS, never matched against desktop entries.
    public var executable: String?
    /// The app ids the window or its process declare, strongest first: `_GTK_APPLICATION_ID` (or
    /// the Wayland app_id), the Flatpak id, the Snap's desktop id, the desktop id of the systemd
    /// scope a launcher made for the process (`ProcessAppIdentity`).
    public var declaredIDs: [String]
    /// `WM_TRANSIENT_FOR`: the window this dialog belongs to.
    public var transientFor: WindowID?
    public var role: WindowRole

    public init(window: WindowID, wmClass: String?, wmInstance: String? = nil, title: String = "",
                pid: Int32? = nil, executable: String? = nil, declaredIDs: [String] = [],
                transientFor: WindowID? = nil, role: WindowRole = .normal) {
        self.window = window
        self.wmClass = wmClass
        self.wmInstance = wmInstance
        self.title = title
        self.pid = pid
        self.executable = executable
        self.declaredIDs = declaredIDs
        self.transientFor = transientFor
        self.role = role
    }
}

extension WindowFacts {
    /// Whether `other` is this window, renamed or not: every fact but the title the same. Field
    /// by field, without a copy: asked at every focus switch. A new fact is compared here too.
    public func isSameWindow(as other: WindowFacts) -> Bool {
        window == other.window && wmClass == other.wmClass && wmInstance == other.wmInstance && pid == other.pid
            && executable == other.executable && declaredIDs == other.declaredIDs && transientFor == other.transientFor
            && role == other.role
    }
}
