import SessionBus

/// The screen saver services on the session bus: `ActiveChanged(b)` from
/// org.freedesktop.ScreenSaver (xfce4-screensaver, KDE, cinnamon…) and org.gnome.ScreenSaver
/// (GNOME). Active means blanked or locked: the user is not there.
enum ScreenSaverWatch {
    static let interfaces = ["org.freedesktop.ScreenSaver", "org.gnome.ScreenSaver"]

    /// Subscribes `connection`; `onChange` is called from its `dispatchPending()`.
    static func subscribe(_ connection: BusConnection, onChange: @escaping (_ active: Bool) -> Void) throws {
        for interface in interfaces {
            try connection.addMatch("type='signal',interface='\(interface)',member='ActiveChanged'")
            connection.onSignal(interface: interface, member: "ActiveChanged") { message in
                if let active = message.arguments.first?.boolValue { onChange(active) }
            }
        }
    }
}
