import Foundation

/// What an end-to-end scenario does on a desktop, whichever it is: open a window of an app, focus
/// it, rename it, ask whether it is minimized (to the scratchpad on sway), close it. A scenario written once
/// against this runs on X11, sway, GNOME Shell and KWin; what only one desktop has stays in that
/// desktop's tests.
public protocol ScenarioDesktop: AgentDesktop {
    associatedtype AppWindow
    /// Opens a window titled `title` that the desktop names `appID` (its Wayland app id, its
    /// WM_CLASS on X11) and waits until it has the focus.
    func openAppWindow(_ appID: String, title: String) throws -> AppWindow
    /// Renames the window, as its program would.
    func setTitle(_ title: String, of window: AppWindow) throws
    /// Focuses the window as a user's click would (bringing it back if it was minimized).
    func focus(_ window: AppWindow) throws
    func isMinimized(_ window: AppWindow) -> Bool
    /// Brings a minimized window back as a user would: its taskbar entry, sway's scratchpad.
    func bringBack(_ window: AppWindow) throws
    func close(_ window: AppWindow)
    /// Chooses the action `key` (shown as `label`) of `notification` in the desktop's own
    /// notification server, as a click on its button would.
    func chooseNotificationAction(_ key: String, label: String, of notification: BusMonitor.NotifyCall) throws
}

extension ScenarioDesktop {
    public func openAppWindow(_ appID: String) throws -> AppWindow { try openAppWindow(appID, title: appID) }
}

/// A window of the X11 desktop: each with its own connection, as each app has.
public struct X11AppWindow {
    public let client: TestWindowClient
    public let window: TestWindow
}

extension DesktopHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String, title: String) throws -> X11AppWindow {
        let client = try TestWindowClient(display: display)
        let window = try client.openWindow(class: appID, instance: appID, title: title)
        client.activate(window)
        guard client.waitUntil(timeout: 5, { client.activeWindow() == window.xid }) else {
            throw Failure.didNotStart(appID, "its window did not get the focus")
        }
        return X11AppWindow(client: client, window: window)
    }

    public func focus(_ window: X11AppWindow) throws { window.client.activate(window.window) }

    public func setTitle(_ title: String, of window: X11AppWindow) throws { window.client.setTitle(window.window, title) }

    public func isMinimized(_ window: X11AppWindow) -> Bool { window.client.wmState(window.window) == 3 }

    /// openbox handles the focus revert of the minimize first, or it falls back to another window.
    public func bringBack(_ window: X11AppWindow) throws {
        guard window.client.syncWithWindowManager() else { throw Failure.didNotAnswer("openbox", "a sync with the window manager timed out") }
        window.client.activate(window.window)
    }

    public func close(_ window: X11AppWindow) { window.client.close(window.window) }

    public func chooseNotificationAction(_ key: String, label: String, of notification: BusMonitor.NotifyCall) throws {
        try DunstControl(desktop: self).chooseAction(label: label, notification: notification.replacesID)
    }
}

extension SwayHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String, title: String) throws -> Window { try openWindow(appID: appID, title: title) }

    public func isMinimized(_ window: Window) -> Bool { (try? state(of: window)?.inScratchpad) == true }

    public func bringBack(_ window: Window) throws { try swaymsg(["[con_id=\(window.conID)]", "scratchpad", "show"]) }

    /// mako's own id for the notification, found by its summary.
    public func chooseNotificationAction(_ key: String, label: String, of notification: BusMonitor.NotifyCall) throws {
        guard let shown = try notifications().first(where: { $0.summary == notification.summary }), shown.actions[key] == label else {
            throw DesktopHarness.Failure.didNotAnswer("mako", "it shows no \(notification.summary) with \(label)")
        }
        try invokeAction(key, notification: shown.id)
    }
}

/// A foot window on GNOME Shell, renamed through its shell.
public struct GnomeAppWindow {
    public let window: GnomeShellHarness.Window
    let titles: TitleFeed
}

extension GnomeShellHarness: ScenarioDesktop {
    public func openAppWindow(_ appID: String, title: String) throws -> GnomeAppWindow {
        let titles = try TitleFeed(in: root)
        return GnomeAppWindow(window: try openWindow(appID: appID, title: title, command: titles.shellCommand), titles: titles)
    }

    public func focus(_ window: GnomeAppWindow) throws { try activate(window.window.id) }

    public func setTitle(_ title: String, of window: GnomeAppWindow) throws { try window.titles.set(title) }

    public func isMinimized(_ window: GnomeAppWindow) -> Bool { (try? windows().first { $0.id == window.window.id }?.minimized) == true }

    public func bringBack(_ window: GnomeAppWindow) throws { try activate(window.window.id) }

    public func close(_ window: GnomeAppWindow) { closeWindow(pid: window.window.pid) }

    /// A click on the banner's button: GNOME Shell sends ActionInvoked.
    public func chooseNotificationAction(_ key: String, label: String, of notification: BusMonitor.NotifyCall) throws {
        guard try invokeNotificationAction(title: notification.summary, label: label) else {
            throw DesktopHarness.Failure.didNotAnswer("GNOME Shell", "it shows no \(notification.summary) with \(label)")
        }
    }
}

extension KWinHarness: ScenarioDesktop {
    /// An xterm on KWin's XWayland whose X class is `appID` (foot exits at once under the test KWin, saying nothing why).
    public func openAppWindow(_ appID: String, title: String) throws -> Terminal { try openXTerminal(xClass: appID, title: title) }

    public func focus(_ window: Terminal) throws { try activate(pid: window.process.processIdentifier) }

    public func isMinimized(_ window: Terminal) -> Bool {
        (try? windows().first { $0.pid == window.process.processIdentifier }?.minimized) == true
    }

    public func bringBack(_ window: Terminal) throws { try activate(pid: window.process.processIdentifier) }

    public func close(_ window: Terminal) { try? closeWindow(window.process) }

    public func chooseNotificationAction(_ key: String, label: String, of notification: BusMonitor.NotifyCall) throws {
        try DunstControl(desktop: self).chooseAction(label: label, notification: notification.replacesID)
    }
}
