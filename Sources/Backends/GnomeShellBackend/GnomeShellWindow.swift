import FoundationEssentials
import LocalProcess
import ScreenTimeCore
import SessionBus

/// A window as the project's GNOME Shell extension describes it: `(tssssus)` in FocusChanged and
/// GetFocus, `(tssssusb)` (with `minimized`) in ListWindows. Every string is untrusted text.
struct GnomeShellWindow: Equatable {
    var id: WindowID
    /// Shell.WindowTracker's app: the desktop id without `.desktop`, or empty.
    var shellAppID: String
    var wmClass: String
    var wmInstance: String
    /// The Flatpak/Snap sandbox's app id, or the GTK application id.
    var sandboxedAppID: String
    var pid: UInt32
    var title: String
    var minimized: Bool

    /// Nil for a malformed structure, and for window 0 (the extension's "no window").
    init?(_ value: BusValue) {
        guard case .structure(let fields) = value, fields.count >= 7,
              let id = fields[0].uint64Value, id != 0,
              let shellAppID = fields[1].stringValue, let wmClass = fields[2].stringValue,
              let wmInstance = fields[3].stringValue, let sandboxedAppID = fields[4].stringValue,
              let pid = fields[5].uint32Value, let title = fields[6].stringValue else { return nil }
        self.id = WindowID(id)
        self.shellAppID = shellAppID
        self.wmClass = wmClass
        self.wmInstance = wmInstance
        self.sandboxedAppID = sandboxedAppID
        self.pid = pid
        self.title = title
        minimized = fields.count > 7 ? fields[7].boolValue ?? false : false
    }

    /// Nil for a malformed signal, and for "no window has focus".
    init?(signal arguments: [BusValue]) {
        self.init(.structure(arguments))
    }

    /// The facts the app resolver reads: the ids the app declares (its sandbox or GTK id, then the
    /// shell's desktop id, then what /proc says), the class as WM_CLASS.
    func facts(includingTitle: Bool) -> WindowFacts {
        let pid = pid > 0 ? Int32(clamping: pid) : nil
        var facts = WindowFacts.wayland(window: id, appID: wmClass, pid: pid, title: includingTitle ? title : "")
        facts.wmInstance = wmInstance.isEmpty ? nil : wmInstance
        let declared = [sandboxedAppID, shellAppID].filter { !$0.isEmpty } + facts.declaredIDs
        facts.declaredIDs = declared.enumerated().filter { declared.firstIndex(of: $0.element) == $0.offset }.map(\.element)
        return facts
    }
}
