import FoundationEssentials
import LocalProcess
import ScreenTimeCore

/// A container as the i3 IPC describes it, in trees and window events: only the fields the
/// provider reads (JSONDecoder skips the rest). Names and ids are untrusted text, never
/// interpreted.
struct I3Node: Decodable {
    var id: UInt64
    var type: String?
    var name: String?
    /// sway: the Wayland app_id (null for XWayland windows).
    var app_id: String?
    var pid: Int32?
    /// sway: "xdg_shell" or "xwayland" on views, absent on other containers.
    var shell: String?
    /// i3 and XWayland: the X window, null on containers that are not windows.
    var window: UInt32?
    var window_properties: WindowProperties?
    var focused: Bool?
    var nodes: [I3Node]?
    var floating_nodes: [I3Node]?

    struct WindowProperties: Decodable {
        var `class`: String?
        var instance: String?
    }

    /// A window (a view), not a split, workspace or output.
    var isWindow: Bool { shell != nil || window != nil }

    /// The window's facts: a Wayland app_id goes through the identity rules as WM_CLASS does; an
    /// X window (i3, XWayland) gives its class and instance. `title` nil: counted as empty.
    func facts(title: String?) -> WindowFacts {
        let pid = pid.flatMap { $0 > 0 ? $0 : nil }
        if let app_id, !app_id.isEmpty {
            return .wayland(window: WindowID(id), appID: app_id, pid: pid, title: title ?? "")
        }
        var facts = WindowFacts.wayland(window: WindowID(id), appID: window_properties?.class, pid: pid, title: title ?? "")
        facts.wmInstance = window_properties?.instance
        return facts
    }

    /// Every window below (and including) this node, and the focused one.
    func windows() -> (all: [I3Node], focused: UInt64?) {
        var all: [I3Node] = []
        var focused: UInt64?
        func walk(_ node: I3Node) {
            if node.isWindow {
                all.append(node)
                if node.focused == true { focused = node.id }
            }
            for child in (node.nodes ?? []) + (node.floating_nodes ?? []) { walk(child) }
        }
        walk(self)
        return (all, focused)
    }
}

/// `SUBSCRIBE ["window"]`'s events.
struct I3WindowEvent: Decodable {
    var change: String
    var container: I3Node
}

/// RUN_COMMAND's and SUBSCRIBE's replies.
struct I3CommandResult: Decodable {
    var success: Bool
    var error: String?
}
