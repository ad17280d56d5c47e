/// An app id, or every id that starts with a prefix (`pinentry*`).
public struct AppIDPattern: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let text: String

    public init(stringLiteral value: String) { text = value }

    public var description: String { text }

    /// What a `prefix*` pattern's ids start with; nil for an exact id.
    public var prefix: Substring? { text.hasSuffix("*") ? text.dropLast() : nil }

    public func matches(_ id: String) -> Bool {
        prefix.map { id.utf8.starts(with: $0.utf8) } ?? (id == text)
    }
}

/// The apps that keep the user safe and the desktop usable: never minimized, never limited, in any
/// mode, whatever the config says. Ids as the resolver names them: the desktop id where the app
/// has an entry or declares one, else the lower-cased WM_CLASS (pinentry-gtk2's windows are
/// `Pinentry-gtk-2`, so `pinentry-gtk-2`; x11-ssh-askpass's are `SshAskpass`). Calls are essential by
/// their category (`Telephony`).
public enum SafetyApps {
    public enum Kind: String, CaseIterable, Sendable {
        case agent = "this agent"
        case authentication = "password prompt"
        case keyring
        case settings = "desktop settings"
        case screenLocker = "screen locker"
        case shell = "desktop shell"
    }

    public static func patterns(_ kind: Kind) -> [AppIDPattern] {
        switch kind {
        case .agent: ["screentime"]
        case .authentication:
            ["pinentry*", "gcr-prompter", "org.gnome.keyring.SystemPrompter", "org.gnome.keyring.PrivatePrompter",
             "polkit-*", "org.kde.polkit-kde-authentication-agent-1", "lxpolkit", "lxqt-policykit-agent",
             "mate-polkit", "xfce-polkit", "ssh-askpass*", "x11-ssh-askpass", "sshaskpass", "ksshaskpass", "org.kde.ksshaskpass",
             "lxqt-openssh-askpass"]
        case .keyring: ["gnome-keyring*", "kwalletd*", "org.kde.kwalletd*"]
        case .settings:
            ["gnome-control-center", "org.gnome.Settings", "systemsettings*", "org.kde.systemsettings",
             "kdesystemsettings", "xfce4-settings-manager", "xfce-settings-manager", "mate-control-center",
             "cinnamon-settings", "lxqt-config", "budgie-control-center"]
        case .screenLocker:
            ["xscreensaver*", "light-locker", "i3lock", "swaylock", "kscreenlocker*", "slock", "xsecurelock",
             "xlock", "gnome-screensaver", "mate-screensaver", "cinnamon-screensaver", "xfce4-screensaver"]
        case .shell:
            ["gnome-shell", "plasmashell", "org.kde.plasmashell", "xfce4-panel", "xfdesktop", "xfce4-notifyd",
             "lxpanel", "mate-panel", "budgie-panel", "tint2", "polybar", "dunst",
             // The agent's own restriction card: the time it is on screen is no app's.
             "screentime-card"]
        }
    }

    /// What `app` is kept safe as, nil when it is not built in: the first kind with a matching
    /// pattern. The engine asks several times at every focus switch and deadline, so the patterns
    /// are looked up (exact ids hashed, then the few prefixes) rather than each tried in turn.
    /// No exact id starts with a prefix, so an id matches one or the other.
    public static func kind(of app: AppID) -> Kind? {
        exactIDs[app.rawValue] ?? prefixes.first { app.rawValue.utf8.starts(with: $0.prefix.utf8) }?.kind
    }

    private static let exactIDs: [String: Kind] = Dictionary(
        Kind.allCases.flatMap { kind in patterns(kind).filter { $0.prefix == nil }.map { ($0.text, kind) } },
        uniquingKeysWith: { first, _ in first })
    private static let prefixes: [(prefix: String, kind: Kind)] = Kind.allCases.flatMap { kind in
        patterns(kind).compactMap { pattern in pattern.prefix.map { (String($0), kind) } }
    }

    /// Whether a WM_CLASS class or instance names a screen locker or a shell part, which some
    /// sessions map as plain windows: never counted as an app at all.
    public static func isLockerOrShell(wmClassName name: String) -> Bool {
        let lowered = name.lowercased()
        return (patterns(.screenLocker) + patterns(.shell)).contains { $0.matches(lowered) }
    }
}
