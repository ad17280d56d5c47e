/// One line of Hyprland's event socket (`.socket2.sock`): `EVENT>>DATA`. Only the events the
/// provider uses; data is untrusted text, split at commas only where the format fixes the count
/// (a title is last and may hold commas).
enum HyprlandEvent: Equatable {
    /// `activewindow>>CLASS,TITLE`: comes just before `activewindowv2`, also when the focused
    /// window's title changes.
    case activeWindow(class: String, title: String)
    /// `activewindowv2>>ADDRESS` (hex without 0x); empty when nothing has focus.
    case activeWindowAddress(UInt64?)
    /// `openwindow>>ADDRESS,WORKSPACE,CLASS,TITLE`.
    case openWindow(UInt64, class: String, title: String)
    /// `closewindow>>ADDRESS`.
    case closeWindow(UInt64)
    /// `windowtitlev2>>ADDRESS,TITLE`.
    case windowTitle(UInt64, title: String)

    /// Nil for events the provider does not use, and lines it cannot read.
    init?(line: Substring) {
        guard let separator = line.firstRange(of: ">>") else { return nil }
        let name = line[..<separator.lowerBound]
        let data = line[separator.upperBound...]
        func fields(_ count: Int) -> [Substring] {
            data.split(separator: ",", maxSplits: count - 1, omittingEmptySubsequences: false)
        }
        switch name {
        case "activewindow":
            let parts = fields(2)
            guard parts.count == 2 else { return nil }
            self = .activeWindow(class: String(parts[0]), title: String(parts[1]))
        case "activewindowv2":
            guard !data.isEmpty else { self = .activeWindowAddress(nil); return }
            guard let address = Self.address(data) else { return nil }
            self = .activeWindowAddress(address)
        case "openwindow":
            let parts = fields(4)
            guard parts.count == 4, let address = Self.address(parts[0]) else { return nil }
            self = .openWindow(address, class: String(parts[2]), title: String(parts[3]))
        case "closewindow":
            guard let address = Self.address(data) else { return nil }
            self = .closeWindow(address)
        case "windowtitlev2":
            let parts = fields(2)
            guard parts.count == 2, let address = Self.address(parts[0]) else { return nil }
            self = .windowTitle(address, title: String(parts[1]))
        default:
            return nil
        }
    }

    /// A window address as Hyprland writes it: hex, with or without 0x.
    static func address(_ text: Substring) -> UInt64? {
        UInt64(text.hasPrefix("0x") ? text.dropFirst(2) : text, radix: 16)
    }
}
