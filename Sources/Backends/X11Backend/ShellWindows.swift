import ScreenTimeCore

/// What marks a window as part of the desktop shell rather than a user's app. Shell windows are
/// never counted as app time and never minimized.
enum ShellWindows {
    /// `_NET_WM_WINDOW_TYPE_*` suffixes of panels, desktops, popups and other transient shell surfaces.
    /// (DIALOG, UTILITY and NORMAL belong to apps.)
    static let windowTypes = ["DESKTOP", "DOCK", "SPLASH", "NOTIFICATION", "TOOLBAR", "MENU", "DROPDOWN_MENU",
                              "POPUP_MENU", "TOOLTIP", "COMBO", "DND"]

    /// Lock screens, screen savers, panels and desktops that some sessions map as plain NORMAL
    /// windows, by WM_CLASS instance or class (`SafetyApps`: a name there is never limited).
    static func isKnownShell(wmClass: String?, wmInstance: String?) -> Bool {
        [wmClass, wmInstance].contains { $0.map(SafetyApps.isLockerOrShell(wmClassName:)) ?? false }
    }
}
