import Foundation

/// A desktop the agent can run on in tests (X11 `DesktopHarness`, `SwayHarness`...): its folder,
/// its session's environment and its session bus.
public protocol AgentDesktop: AnyObject {
    var root: URL { get }
    var environment: [String: String] { get }
    func busNameHasOwner(_ name: String) -> Bool
}

extension DesktopHarness: AgentDesktop {}
extension SwayHarness: AgentDesktop {}
