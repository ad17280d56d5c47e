import Foundation

/// A desktop a test runs the agent on: the X11 harness or a Wayland compositor's (sway, KWin, GNOME Shell).
/// The agent gets its environment (with a home of its own) and joins its session bus.
public protocol AgentDesktop: AnyObject {
    /// The harness's own folder: test homes and dunst's menu live under it.
    var root: URL { get }
    /// HOME, XDG_*, the display and the session bus address, for child processes.
    var environment: [String: String] { get }
    var busAddress: String { get }
    func busNameHasOwner(_ name: String) -> Bool
}

extension DesktopHarness: AgentDesktop {}
extension SwayHarness: AgentDesktop {}
extension KWinHarness: AgentDesktop {}
extension GnomeShellHarness: AgentDesktop {}
