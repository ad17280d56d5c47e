import Foundation
import Synchronization

/// A real sway 1.7 desktop for tests, headless: sway (as an unprivileged user, since it refuses to
/// run as root), a private session `dbus-daemon` and mako as the notification daemon. The shared one
/// is started once per test process and stopped at exit; a test that stops sway starts its own.
/// A compositor that does not start is an error that fails the test, never a skip.
///
/// The test process (root) reaches sway's sockets and the bus directly: root passes the runtime
/// directory's 0700 and sway checks no peer credentials. Clients that sway should treat as the
/// user's (windows, swaymsg, mako) run as `user`.
public final class SwayHarness: SharedHarness {
    /// The unprivileged user sway, its clients and mako run as (nobody).
    public static let user: UInt32 = 65534

    public let root: URL
    /// Sway's runtime directory, owned by `user`, 0700: its Wayland and IPC sockets.
    public let runtimeDirectory: String
    public var busAddress: String { state.withLock { $0.busAddress } }
    public var ipcSocket: String { state.withLock { $0.ipcSocket } }
    public let waylandDisplay = "wayland-1"
    /// For clients: WAYLAND_DISPLAY, SWAYSOCK, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS,
    /// XDG_SESSION_TYPE=wayland, XDG_CURRENT_DESKTOP=sway, HOME and XDG folders; no DISPLAY.
    public var environment: [String: String] { state.withLock { $0.environment } }

    private let processes = HarnessProcesses()
    /// What is known only once sway and the bus run, and the windows opened: in a Mutex, so the
    /// harness is Sendable, shared by the tests of a process.
    private let state: Mutex<State>

    private struct State {
        var busAddress = ""
        var ipcSocket = ""
        var environment: [String: String]
        var windows: [Process] = []
    }

    private static let instance = SharedInstance { try SwayHarness() }

    /// The process-wide sway desktop, started on first use.
    public static func shared() throws -> SwayHarness { try instance.get() }

    /// Starts sway, and unless `notifications` is false, the bus and mako.
    public init(notifications: Bool = true) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("screentime-sway-\(getpid())-\(UUID().uuidString.prefix(6))")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let home = root.appendingPathComponent("home")
        runtimeDirectory = root.appendingPathComponent("run").path
        for directory in [home.path, runtimeDirectory] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            guard chown(directory, Self.user, Self.user) == 0 else {
                throw DesktopHarness.Failure.didNotStart("sway", "cannot give \(directory) to uid \(Self.user): errno \(errno)")
            }
        }
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE"] {
            env[key] = nil
        }
        env["PATH"] = "/usr/bin:/bin"
        env["HOME"] = home.path
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        env["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        env["XDG_SESSION_TYPE"] = "wayland"
        env["XDG_CURRENT_DESKTOP"] = "sway"
        env["WLR_BACKENDS"] = "headless"
        env["WLR_RENDERER"] = "pixman"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        state = Mutex(State(environment: env))

        let config = root.appendingPathComponent("sway.conf")
        // XWayland for X clients; new windows take focus, as on a user's desktop.
        try """
            output HEADLESS-1 resolution 1280x800
            xwayland enable
            focus_on_window_activation focus
            """.write(to: config, atomically: true, encoding: .utf8)
        let sway = try launchAsUser("sway", ["-c", config.path], name: "sway")
        try waitFor("sway", timeout: 10, alive: sway) { self.findIPCSocket() != nil }
        let ipcSocket = findIPCSocket()!
        state.withLock { state in
            state.ipcSocket = ipcSocket
            state.environment["SWAYSOCK"] = ipcSocket
            state.environment["I3SOCK"] = ipcSocket
            state.environment["WAYLAND_DISPLAY"] = waylandDisplay
        }
        try waitFor("sway outputs", timeout: 10, alive: sway) { (try? self.swaymsg(["-t", "get_outputs"]))?.contains("HEADLESS") == true }

        if notifications { try startBusAndNotifications() }
    }

    private func findIPCSocket() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.map { "\(runtimeDirectory)/\($0)" }
    }

    private func startBusAndNotifications() throws {
        let busConfig = root.appendingPathComponent("bus.conf")
        // Every user may connect: mako runs as `user`, the tests and the agent as root.
        try DesktopHarness.busConfig(socketPath: root.appendingPathComponent("bus").path, everyUser: true)
            .write(to: busConfig, atomically: true, encoding: .utf8)
        let out = Pipe()
        try processes.launch("dbus-daemon", ["--config-file=\(busConfig.path)", "--nofork", "--nopidfile", "--print-address=1"],
                             environment: nil, name: "dbus-daemon", stdout: out)
        let busAddress = try DesktopHarness.readLine(from: out, timeout: 10, process: "dbus-daemon")
        state.withLock {
            $0.busAddress = busAddress
            $0.environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        }
        try startNotificationServer()
    }

    /// Starts mako (again), as `user`, waiting until it owns its bus name. Notifications never
    /// expire, so tests can read them.
    public func startNotificationServer() throws {
        if processes["mako"]?.isRunning == true { throw DesktopHarness.Failure.didNotStart("mako", "it is already running") }
        let mako = try launchAsUser("mako", ["--default-timeout", "0", "--max-visible", "-1"], name: "mako")
        try waitFor("mako", timeout: 10, alive: mako) { self.busNameHasOwner("org.freedesktop.Notifications") }
    }

    public func stopNotificationServer() {
        processes.stop("mako")
        _ = try? waitFor("mako exit", timeout: 5, alive: nil) { !self.busNameHasOwner("org.freedesktop.Notifications") }
    }

    /// A notification mako shows.
    public struct MakoNotification: Equatable {
        public let id: UInt32
        public let summary: String
        public let body: String
        /// Action keys to labels.
        public let actions: [String: String]
    }

    /// What mako shows now (`makoctl list`, as `user`).
    public func notifications() throws -> [MakoNotification] {
        let json = try runAsUser("makoctl", ["list"])
        let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let list = ((root?["data"] as? [Any])?.first as? [[String: Any]]) ?? []
        func field(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return list.compactMap { entry in
            guard let id = field(entry, "id") as? Int else { return nil }
            return MakoNotification(id: UInt32(id), summary: field(entry, "summary") as? String ?? "",
                                    body: field(entry, "body") as? String ?? "",
                                    actions: field(entry, "actions") as? [String: String] ?? [:])
        }
    }

    /// Chooses `action` in mako's notification `id`, as a click on it does (`makoctl invoke`).
    public func invokeAction(_ action: String, notification id: UInt32) throws {
        try runAsUser("makoctl", ["invoke", "-n", String(id), action])
    }

    public func busNameHasOwner(_ name: String) -> Bool {
        let reply = (try? runAsUser("dbus-send", ["--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus",
                                            "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                            "string:\(name)"])) ?? ""
        return reply.contains("boolean true")
    }

    /// Stops everything: windows, mako, the bus, sway. Safe to call twice.
    public func stop() {
        let windows = state.withLock { state in
            defer { state.windows.removeAll() }
            return state.windows
        }
        for window in windows where window.isRunning { window.terminate() }
        for name in ["mako", "dbus-daemon", "sway"] { processes.stop(name) }
        try? FileManager.default.removeItem(at: root)
    }

    /// Stops sway alone, as when the compositor crashes or the user logs out.
    public func stopCompositor() { processes.stop("sway") }

    // MARK: - Windows

    /// A foot terminal the test opened, with the con_id sway gave it.
    public struct Window: CustomStringConvertible {
        public let conID: UInt64
        public let pid: Int32
        public let appID: String
        /// Where the terminal's shell reads its titles from (nil: an X client's window).
        let titles: TitleFeed?
        public var description: String { "\(appID)#\(conID)" }
    }

    /// Opens a foot window with `appID` as `user` and waits until sway manages (and focuses) it.
    public func openWindow(appID: String, title: String? = nil) throws -> Window {
        let feed = try TitleFeed(in: root)
        var arguments = ["--app-id", appID]
        if let title { arguments += ["--title", title] }
        arguments += feed.shellCommand
        let foot = try launchAsUser("foot", arguments, name: nil)
        state.withLock { $0.windows.append(foot) }
        let pid = foot.processIdentifier
        var found: I3TreeWindow?
        try waitFor("foot --app-id \(appID)", timeout: 10, alive: foot) {
            found = (try? self.windowStates())?.first { $0.pid == pid && $0.appID == appID }
            return found?.focused == true
        }
        return Window(conID: found!.conID, pid: pid, appID: appID, titles: feed)
    }

    /// Opens an xterm through sway (`exec`, so it finds sway's XWayland) with WM_CLASS
    /// `instance`/`xClass` and waits until sway manages and focuses it. `appID` is the X class.
    public func openXWaylandWindow(xClass: String, instance: String) throws -> Window {
        try swaymsg(["exec", "xterm -class \(xClass) -name \(instance)"])
        var found: I3TreeWindow?
        try waitFor("xterm -class \(xClass) on XWayland", timeout: 15, alive: processes["sway"]) {
            found = (try? self.windowStates())?.first { $0.xClass == xClass }
            return found?.focused == true
        }
        return Window(conID: found!.conID, pid: found!.pid ?? 0, appID: xClass, titles: nil)
    }

    /// Sets the window's title (the terminal's shell prints the escape sequence).
    public func setTitle(_ title: String, of window: Window) throws {
        guard let titles = window.titles else { throw DesktopHarness.Failure.didNotStart("title change", "\(window) is not a foot window") }
        try titles.set(title)
    }

    /// Closes the window (the terminal exits).
    public func close(_ window: Window) {
        kill(window.pid, SIGTERM)
    }

    /// Focuses the window through sway, as a click would.
    public func focus(_ window: Window) throws {
        try swaymsg(["[con_id=\(window.conID)]", "focus"])
    }

    // MARK: - Sway state

    /// Every window in `swaymsg -t get_tree`.
    public func windowStates() throws -> [I3TreeWindow] {
        try I3Tree.windows(in: swaymsg(["-t", "get_tree", "--raw"]))
    }

    /// The window's state now; nil once sway no longer has it.
    public func state(of window: Window) throws -> I3TreeWindow? {
        try windowStates().first { $0.conID == window.conID }
    }

    /// Runs `swaymsg` as `user` and returns its output; a failing command is an error.
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> String {
        try runAsUser("swaymsg", arguments)
    }

    /// Runs `program` as `user` and returns its output; a failing command is an error.
    @discardableResult
    public func runAsUser(_ program: String, _ arguments: [String]) throws -> String {
        try makeProcessAsUser(program, arguments).checkedOutput("\(program) \(arguments.joined(separator: " "))")
    }

    // MARK: - Processes

    /// `program` run as `user` through setpriv (which execs it: the pid is the program's).
    private func makeProcessAsUser(_ program: String, _ arguments: [String]) throws -> Process {
        try HarnessProcesses.process(program, arguments, environment: environment, asUser: Self.user)
    }

    @discardableResult
    private func launchAsUser(_ program: String, _ arguments: [String], name: String?) throws -> Process {
        try processes.launch(program, arguments, environment: environment, name: name, asUser: Self.user)
    }

    private func waitFor(_ what: String, timeout: TimeInterval, alive: Process?, _ ready: () -> Bool) throws {
        try DesktopHarness.waitFor(what, timeout: timeout, alive: alive, ready)
    }
}
