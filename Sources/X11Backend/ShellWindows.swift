/// What marks a window as part of the desktop shell rather than a user's app. Shell windows are
/// never counted as app time and never minimized.
enum ShellWindows {
    /// `_NET_WM_WINDOW_TYPE_*` suffixes of panels, desktops, popups and other transient shell surfaces.
    /// (DIALOG, UTILITY and NORMAL belong to apps.)
    static let windowTypes = ["DESKTOP", "DOCK", "SPLASH", "NOTIFICATION", "TOOLBAR", "MENU", "DROPDOWN_MENU",
                              "POPUP_MENU", "TOOLTIP", "COMBO", "DND"]

    /// Lower-cased WM_CLASS instance or class names of lock screens, screen savers, panels and
    /// desktops that some sessions map as plain NORMAL windows. Kept short on purpose: a name
    /// here is never limited, so only the session's own furniture belongs.
    static let knownClasses: Set<String> = [
        // Lock screens and screen savers.
        "xscreensaver", "i3lock", "light-locker", "slock", "xsecurelock", "xlock",
        "gnome-screensaver", "mate-screensaver", "cinnamon-screensaver",
        // Shells, panels and desktops.
        "gnome-shell", "plasmashell", "xfce4-panel", "xfdesktop", "xfce4-notifyd", "lxpanel", "mate-panel",
        "tint2", "polybar", "dunst",
    ]

    static func isKnownShell(wmClass: String?, wmInstance: String?) -> Bool {
        [wmClass, wmInstance].contains { $0.map { knownClasses.contains($0.lowercased()) } ?? false }
    }
}
