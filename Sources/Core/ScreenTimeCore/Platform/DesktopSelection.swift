/// What the agent can find out about the session before choosing providers: the environment's
/// variables, the names owned on the session bus and the Wayland registry's globals.
public struct SessionFacts: Equatable, Sendable {
    /// `XDG_SESSION_TYPE`: "x11", "wayland", "tty"... (lower-cased); nil when unset.
    public var sessionType: String?
    /// `XDG_CURRENT_DESKTOP`'s entries, lower-cased ("gnome", "kde", "sway", "ubuntu"...).
    public var desktops: [String]
    public var hasX11Display: Bool
    public var hasWaylandDisplay: Bool
    /// `SWAYSOCK`, `I3SOCK`, `HYPRLAND_INSTANCE_SIGNATURE` set.
    public var swaySocket: Bool
    public var i3Socket: Bool
    public var hyprland: Bool
    /// Well-known names owned on the session bus (only those the selection asks about).
    public var busNames: Set<String>
    /// The Wayland registry's interface names; empty without a Wayland display.
    public var waylandGlobals: Set<String>

    public init(sessionType: String? = nil, desktops: [String] = [], hasX11Display: Bool = false,
                hasWaylandDisplay: Bool = false, swaySocket: Bool = false, i3Socket: Bool = false,
                hyprland: Bool = false, busNames: Set<String> = [], waylandGlobals: Set<String> = []) {
        self.sessionType = sessionType
        self.desktops = desktops
        self.hasX11Display = hasX11Display
        self.hasWaylandDisplay = hasWaylandDisplay
        self.swaySocket = swaySocket
        self.i3Socket = i3Socket
        self.hyprland = hyprland
        self.busNames = busNames
        self.waylandGlobals = waylandGlobals
    }

    /// The facts the environment alone gives (bus names and globals are added by the agent).
    public init(environment: [String: String]) {
        func set(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        self.init(sessionType: environment["XDG_SESSION_TYPE"].flatMap { $0.isEmpty ? nil : $0.lowercased() },
                  desktops: (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() },
                  hasX11Display: set("DISPLAY"), hasWaylandDisplay: set("WAYLAND_DISPLAY"),
                  swaySocket: set("SWAYSOCK"), i3Socket: set("I3SOCK"),
                  hyprland: set("HYPRLAND_INSTANCE_SIGNATURE"))
    }

    /// A Wayland session: said so, or a Wayland display without a say. An X display beside it is
    /// XWayland, which sees only X clients.
    public var isWayland: Bool {
        sessionType == "wayland" || (sessionType != "x11" && hasWaylandDisplay)
    }

    public var isGNOME: Bool {
        busNames.contains(DesktopSelection.gnomeShellBusName) || desktops.contains("gnome")
    }

    public var isKDE: Bool {
        busNames.contains(DesktopSelection.kwinBusName) || desktops.contains("kde")
    }
}

/// What the agent needs from the desktop.
public enum DesktopCapability: String, CaseIterable, Sendable {
    case focus
    case minimize
    case idle
    case screenFilter = "screen filter"
}

/// Every provider the agent knows. One kind may fill several capabilities over one connection.
public enum DesktopProviderKind: String, CaseIterable, Sendable {
    /// X11: EWMH focus (or polling), `XIconifyWindow`, XSync idle alarms.
    case x11
    /// X11: RandR CTM grayscale, CRTC gamma warmth.
    case randr
    /// The i3 IPC (sway and i3): `window` events, `move scratchpad`.
    case i3IPC = "i3-ipc"
    /// Hyprland's socket2 events and its dispatch socket.
    case hyprland
    /// The project's GNOME Shell extension over the session bus: focus, minimize, grayscale, tint.
    case gnomeShell = "gnome-shell-extension"
    /// `org.gnome.Mutter.IdleMonitor`.
    case mutterIdle = "mutter-idle-monitor"
    /// `org_kde_plasma_window_management` (Wayland, KDE's privileged global).
    case plasmaWindows = "plasma-window-management"
    /// A KWin script loaded over D-Bus, reporting activations back.
    case kwinScript = "kwin-script"
    /// KWin's Night Light: the warm tint on KDE.
    case kwinNightLight = "kwin-night-light"
    /// `zwlr_foreign_toplevel_manager_v1`: focus and `set_minimized` on wlroots compositors.
    case wlrForeignToplevel = "wlr-foreign-toplevel"
    /// `ext_idle_notifier_v1`, or `org_kde_kwin_idle` where that is all there is.
    case waylandIdle = "wayland-idle"
    /// `zwlr_gamma_control_manager_v1`: the warm tint on wlroots compositors.
    case wlrGamma = "wlr-gamma-control"
    /// Nothing: no focus (nothing counts), nothing minimized, always present, no filter.
    case dummy
}

/// One provider the agent will try for a capability, and why.
public struct ProviderCandidate: Equatable, Sendable {
    public var kind: DesktopProviderKind
    public var reason: String

    public init(_ kind: DesktopProviderKind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// Which providers to try, in order, for each capability in a session: the probes' decision.
/// The agent tries each until one starts; the dummy is always last.
public enum DesktopSelection {
    public static let gnomeShellBusName = "org.gnome.Shell"
    public static let kwinBusName = "org.kde.KWin"
    public static let foreignToplevelGlobal = "zwlr_foreign_toplevel_manager_v1"
    public static let plasmaWindowsGlobal = "org_kde_plasma_window_management"
    public static let extIdleGlobal = "ext_idle_notifier_v1"
    public static let kdeIdleGlobal = "org_kde_kwin_idle"
    public static let gammaGlobal = "zwlr_gamma_control_manager_v1"

    public static func candidates(for capability: DesktopCapability, in facts: SessionFacts) -> [ProviderCandidate] {
        var list: [ProviderCandidate]
        switch capability {
        case .focus, .minimize: list = windowProviders(facts)
        case .idle: list = idleProviders(facts)
        case .screenFilter: list = filterProviders(facts)
        }
        list.append(ProviderCandidate(.dummy, "nothing else fits"))
        return list
    }

    static func windowProviders(_ facts: SessionFacts) -> [ProviderCandidate] {
        var list: [ProviderCandidate] = []
        let globals = facts.waylandGlobals
        if facts.hyprland { list.append(.init(.hyprland, "HYPRLAND_INSTANCE_SIGNATURE is set")) }
        if facts.swaySocket || facts.i3Socket {
            // i3 ignores iconify requests: its scratchpad is the way, on X11 too.
            list.append(.init(.i3IPC, facts.swaySocket ? "SWAYSOCK is set" : "I3SOCK is set"))
        }
        if facts.isGNOME {
            list.append(.init(.gnomeShell, facts.busNames.contains(gnomeShellBusName)
                              ? "GNOME Shell owns \(gnomeShellBusName)" : "XDG_CURRENT_DESKTOP is GNOME"))
        }
        if facts.isKDE && facts.isWayland {
            if globals.contains(plasmaWindowsGlobal) {
                list.append(.init(.plasmaWindows, "KWin offers \(plasmaWindowsGlobal)"))
            }
            list.append(.init(.kwinScript, "KWin on Wayland: a script loaded over D-Bus"))
        }
        if facts.isWayland && globals.contains(foreignToplevelGlobal) {
            list.append(.init(.wlrForeignToplevel, "the compositor offers \(foreignToplevelGlobal)"))
        }
        if facts.hasX11Display && !facts.isWayland { list.append(.init(.x11, "an X11 session (DISPLAY is set)")) }
        return list
    }

    static func idleProviders(_ facts: SessionFacts) -> [ProviderCandidate] {
        var list: [ProviderCandidate] = []
        if facts.hasX11Display && !facts.isWayland { list.append(.init(.x11, "an X11 session: XSync idle alarms")) }
        if facts.isGNOME && facts.isWayland { list.append(.init(.mutterIdle, "GNOME on Wayland: Mutter's idle monitor")) }
        if facts.isWayland {
            if facts.waylandGlobals.contains(extIdleGlobal) {
                list.append(.init(.waylandIdle, "the compositor offers \(extIdleGlobal)"))
            } else if facts.waylandGlobals.contains(kdeIdleGlobal) {
                list.append(.init(.waylandIdle, "the compositor offers \(kdeIdleGlobal)"))
            }
        }
        return list
    }

    static func filterProviders(_ facts: SessionFacts) -> [ProviderCandidate] {
        var list: [ProviderCandidate] = []
        if facts.hasX11Display && !facts.isWayland { list.append(.init(.randr, "an X11 session: RandR")) }
        guard facts.isWayland else { return list }
        if facts.isGNOME { list.append(.init(.gnomeShell, "GNOME: the extension's effects")) }
        if facts.isKDE { list.append(.init(.kwinNightLight, "KDE: Night Light")) }
        if facts.waylandGlobals.contains(gammaGlobal) {
            list.append(.init(.wlrGamma, "the compositor offers \(gammaGlobal)"))
        }
        return list
    }
}
