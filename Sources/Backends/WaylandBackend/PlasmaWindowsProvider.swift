import FoundationEssentials
import LocalProcess
import ScreenTimeCore

/// Focus and minimize on KDE Plasma through KWin's privileged `org_kde_plasma_window_management`:
/// every window with its app id, pid, title and states; the `active` one is focused, and
/// `set_state(MINIMIZED)` minimizes. KWin offers the global only to a program whose executable
/// is the `Exec` of a desktop entry naming it in `X-KDE-Wayland-Interfaces` (install.sh installs
/// one for screentime-agent).
public final class PlasmaWindowsProvider: WaylandWindowList, FocusProvider, WindowMinimizer {
    public let providerName = "KDE plasma window management"

    private let manager: PlasmaWindowManagementProxy
    private var windows: [UInt32: Window] = [:]

    private final class Window {
        let proxy: PlasmaWindowProxy
        var appID = ""
        var title = ""
        var pid: Int32?
        var state: PlasmaWindowProxy.State = []
        /// Its first properties have all arrived (`initial_state`).
        var ready = false

        init(proxy: PlasmaWindowProxy) { self.proxy = proxy }

        /// Panels, the desktop, notifications: KWin keeps them off the task bar.
        var role: WindowRole { state.contains(.skipTaskbar) ? .shell : .normal }
    }

    /// Connects to KWin and reads its windows (round trips until their first states are in:
    /// the only blocking calls).
    public init(environment: [String: String]) throws {
        let (display, registry) = try RegistryProxy.connect(environment: environment)
        manager = try registry.require(DesktopSelection.plasmaWindowsGlobal, registry.bindPlasmaWindowManagement)
        super.init(display: display, registry: registry)
        manager.onWindow = { [unowned self] id, uuid in adopt(id: id, uuid: uuid) }
        try display.roundtrip()
        try display.roundtrip()
        _ = try currentFocus()
    }

    // MARK: WindowMinimizer

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        for window in windows.values where window.ready && window.role == .normal && !window.state.contains(.minimized) {
            if identify(facts(of: window)) == app { window.proxy.setMinimized() }
        }
        try display.flush()
    }

    // MARK: Windows

    private func adopt(id: UInt32, uuid: String?) {
        // KWin announces a window twice to a client of version 13 or later (with and without its uuid).
        guard windows[id] == nil, let proxy = manager.window(id: id, uuid: uuid) else { return }
        let window = Window(proxy: proxy)
        windows[id] = window
        proxy.onAppID = { [unowned window] in window.appID = $0 }
        proxy.onTitle = { [unowned window] in window.title = $0 }
        proxy.onPID = { [unowned window] in window.pid = $0 }
        proxy.onState = { [unowned window] in window.state = $0 }
        proxy.onInitialState = { [unowned window] in window.ready = true }
        proxy.onUnmapped = { [unowned self, unowned window] in
            window.proxy.destroy()
            windows[window.proxy.id] = nil
        }
    }

    private func facts(of window: Window) -> WindowFacts {
        WindowFacts.wayland(window: WindowID(UInt64(window.proxy.id)), appID: window.appID, pid: window.pid,
                            title: window.title, role: window.role)
    }

    override func focusedFacts() -> WindowFacts? {
        windows.values.first { $0.ready && $0.state.contains(.active) }.map(facts(of:))
    }
}
