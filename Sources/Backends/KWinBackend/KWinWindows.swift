import LocalProcess
import ScreenTimeCore

/// The windows KWin's script reported, by KWin's internal id (a UUID string), each numbered with
/// a `WindowID` of its own for the core.
struct KWinWindows {
    /// One window's facts as the script sent them: untrusted text, never interpreted.
    struct Window {
        let number: WindowID
        var resourceClass: String
        var resourceName: String
        var desktopFileName: String
        var pid: Int32
        var caption: String
        var isShell: Bool

        /// The facts the core names an app by: resourceClass/resourceName are WM_CLASS (or the
        /// Wayland app_id), a desktop file name that differs is what the window declares
        /// (`_KDE_NET_WM_DESKTOP_FILE`, a GTK application id), /proc adds the process's identity.
        func facts(withTitle: Bool) -> WindowFacts {
            var facts = WindowFacts.wayland(window: number, appID: resourceClass, pid: pid > 0 ? pid : nil,
                                            title: withTitle ? caption : "", role: isShell ? .shell : .normal)
            facts.wmInstance = resourceName.isEmpty ? nil : resourceName
            if !desktopFileName.isEmpty && desktopFileName != resourceClass {
                facts.declaredIDs.insert(desktopFileName, at: 0)
            }
            return facts
        }
    }

    private(set) var byID: [String: Window] = [:]
    private var nextNumber: UInt64 = 1

    /// Adds the window, or updates what changed of one already known (keeping its number).
    mutating func update(id: String, resourceClass: String, resourceName: String, desktopFileName: String,
                         pid: Int32, caption: String, isShell: Bool) {
        let number = byID[id]?.number ?? WindowID(nextNumber)
        if byID[id] == nil { nextNumber += 1 }
        let window = Window(number: number, resourceClass: resourceClass, resourceName: resourceName,
                            desktopFileName: desktopFileName, pid: pid, caption: caption, isShell: isShell)
        byID[id] = window
    }

    mutating func setCaption(_ caption: String, of id: String) -> Window? {
        byID[id]?.caption = caption
        return byID[id]
    }

    mutating func remove(_ id: String) {
        byID[id] = nil
    }

    /// KWin ids of the normal windows `matches` accepts.
    func ids(where matches: (Window) -> Bool) -> [String] {
        byID.filter { !$0.value.isShell && matches($0.value) }.map(\.key).sorted()
    }
}
