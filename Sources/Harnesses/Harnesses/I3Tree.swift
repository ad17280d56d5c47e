import Foundation

/// One window in an i3 IPC tree (`swaymsg -t get_tree`, `i3-msg -t get_tree`), as tests read it.
public struct I3TreeWindow: Equatable {
    public let conID: UInt64
    /// sway: the Wayland app_id.
    public let appID: String?
    /// WM_CLASS's class and instance of an X window (i3, XWayland).
    public let xClass: String?
    public let xInstance: String?
    /// sway only.
    public let pid: Int32?
    public let name: String?
    public let focused: Bool
    /// In the scratchpad (the `__i3_scratch` workspace), not shown.
    public let inScratchpad: Bool
}

public enum I3Tree {
    /// Every window (a container with a pid or an X window) in the tree `json`.
    public static func windows(in json: String) throws -> [I3TreeWindow] {
        guard let tree = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw DesktopHarness.Failure.didNotStart("get_tree", "no tree in \(json.prefix(200))")
        }
        var windows: [I3TreeWindow] = []
        func walk(_ node: [String: Any], inScratchpad: Bool) {
            let scratch = inScratchpad || (node["type"] as? String == "workspace" && node["name"] as? String == "__i3_scratch")
            let pid = node["pid"] as? Int
            if let id = node["id"] as? Int, pid != nil || node["window"] as? Int != nil,
               node["type"] as? String == "con" || node["type"] as? String == "floating_con" {
                let properties = node["window_properties"] as? [String: Any]
                windows.append(I3TreeWindow(conID: UInt64(id), appID: node["app_id"] as? String,
                                            xClass: properties?["class"] as? String, xInstance: properties?["instance"] as? String,
                                            pid: pid.map(Int32.init), name: node["name"] as? String,
                                            focused: node["focused"] as? Bool ?? false, inScratchpad: scratch))
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { walk(child, inScratchpad: scratch) }
            }
        }
        walk(tree, inScratchpad: false)
        return windows
    }
}
