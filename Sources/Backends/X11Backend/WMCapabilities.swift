/// What the running window manager and X server offer, for `doctor` and backend choice.
public struct WMCapabilities: Equatable, Sendable {
    /// `_NET_WM_NAME` of the `_NET_SUPPORTING_WM_CHECK` window (`Openbox`); untrusted text.
    public var windowManagerName: String?
    /// An EWMH window manager is running (its check window is live and points at itself).
    public var hasEWMH: Bool
    /// `_NET_SUPPORTED` lists `_NET_ACTIVE_WINDOW`.
    public var supportsActiveWindow: Bool
    /// The MIT-SCREEN-SAVER extension is present (idle time).
    public var hasScreenSaverExtension: Bool
    /// RandR version as "major.minor", nil when absent.
    public var randrVersion: String?

    public static func probe(_ connection: X11Connection) throws -> WMCapabilities {
        let inspector = WindowInspector(connection: connection)
        let atoms = connection.atoms
        var capabilities = WMCapabilities(windowManagerName: nil, hasEWMH: false, supportsActiveWindow: false,
                                          hasScreenSaverExtension: try connection.display.hasScreenSaverExtension(),
                                          randrVersion: try connection.display.randrVersion().map { "\($0.major).\($0.minor)" })
        // A WM that exited leaves a stale property behind: its window is gone or no longer points at itself.
        if let raw = try inspector.cardinals(connection.root, atoms.netSupportingWMCheck).first, raw != 0 {
            let check = Window(rawValue: raw)
            do {
                if try inspector.cardinals(check, atoms.netSupportingWMCheck).first == raw {
                    capabilities.hasEWMH = true
                    let name = try inspector.title(of: check)
                    capabilities.windowManagerName = name.isEmpty ? nil : name
                }
            } catch let error as X11Error where error.isWindowGone {}
        }
        if capabilities.hasEWMH {
            let supported = try inspector.cardinals(connection.root, atoms.netSupported, maxLength: 4096)
            capabilities.supportsActiveWindow = supported.contains(atoms.netActiveWindow.rawValue)
        }
        return capabilities
    }
}
