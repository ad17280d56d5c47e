import Foundation

/// A test desktop the agent can run on as a user would: its folders, its environment and its
/// session bus. The X11 harness and GNOME Shell's.
public protocol AgentDesktop: AnyObject {
    var root: URL { get }
    /// HOME, XDG_*, the display and DBUS_SESSION_BUS_ADDRESS, for child processes.
    var environment: [String: String] { get }
    func busNameHasOwner(_ name: String) -> Bool
}

extension DesktopHarness: AgentDesktop {}
extension GnomeShellHarness: AgentDesktop {}
