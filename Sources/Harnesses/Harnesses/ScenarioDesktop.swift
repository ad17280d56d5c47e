import Foundation

/// What an end-to-end scenario does on a desktop, whichever it is: open a window of an app, focus
/// it, ask whether it is minimized (to the scratchpad on sway), close it. A scenario written once
/// against this runs on X11, sway, GNOME Shell and KWin; what only one desktop has stays in that
/// desktop's tests.
public protocol ScenarioDesktop: AgentDesktop {
    associatedtype AppWindow
    /// Opens a window the desktop names `appID` (its Wayland app id, its WM_CLASS on X11) and
    /// waits until it has the focus.
    func openAppWindow(_ appID: String) throws -> AppWindow
    /// Focuses the window as a user's click would (bringing it back if it was minimized).
    func focus(_ window: AppWindow) throws
    func isMinimized(_ window: AppWindow) -> Bool
    func close(_ window: AppWindow)
}

/// A window of the X11 desktop: each with its own connection, as each app has.
public struct X11AppWindow {
    public let client: TestWindowClient
    public let window: TestWindow
}

extension DesktopHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String) throws -> X11AppWindow {
        let client = try TestWindowClient(display: display)
        let window = try client.openWindow(class: appID, instance: appID, title: appID)
        client.activate(window)
        guard client.waitUntil(timeout: 5, { client.activeWindow() == window.xid }) else {
            throw Failure.didNotStart(appID, "its window did not get the focus")
        }
        return X11AppWindow(client: client, window: window)
    }

    public func focus(_ window: X11AppWindow) throws { window.client.activate(window.window) }

    public func isMinimized(_ window: X11AppWindow) -> Bool { window.client.wmState(window.window) == 3 }

    public func close(_ window: X11AppWindow) { window.client.close(window.window) }
}

extension SwayHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String) throws -> Window { try openWindow(appID: appID) }

    public func isMinimized(_ window: Window) -> Bool { (try? state(of: window)?.inScratchpad) == true }
}

extension GnomeShellHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String) throws -> Window { try openWindow(appID: appID) }

    public func focus(_ window: Window) throws { try activate(window.id) }

    public func isMinimized(_ window: Window) -> Bool { (try? windows().first { $0.id == window.id }?.minimized) == true }

    public func close(_ window: Window) { closeWindow(pid: window.pid) }
}

extension KWinHarness: ScenarioDesktop {
    /// An xterm on KWin's XWayland whose X class is `appID` (foot exits at once under the test KWin, saying nothing why).
    public func openAppWindow(_ appID: String) throws -> Process { try openXWindow(xClass: appID, instance: appID) }

    public func focus(_ window: Process) throws { try activate(pid: window.processIdentifier) }

    public func isMinimized(_ window: Process) -> Bool {
        (try? windows().first { $0.pid == window.processIdentifier }?.minimized) == true
    }

    public func close(_ window: Process) { try? closeWindow(window) }
}
