import FoundationEssentials
import LocalProcess
import ScreenTimeCore

/// One window of `j/clients` (and `j/activewindow`): only the fields the provider reads.
struct HyprlandClient: Decodable {
    /// "0x55d1c3a0f2b0".
    var address: String
    var `class`: String?
    var title: String?
    var pid: Int32?
    var xwayland: Bool?
    var mapped: Bool?

    var id: UInt64? { HyprlandEvent.address(Substring(address)) }

    /// The identity facts (title empty): class is the Wayland app_id, or an XWayland window's
    /// X class; /proc adds how the process was started.
    func facts(id: UInt64) -> WindowFacts {
        .wayland(window: WindowID(id), appID: self.class, pid: pid.flatMap { $0 > 0 ? $0 : nil }, title: "")
    }
}
