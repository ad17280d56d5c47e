import Foundation
import SessionBus
import Synchronization

/// A real, private KDE Plasma compositor for tests: KWin 5.27 on its virtual (headless) output
/// with XWayland, a private session `dbus-daemon` and dunst (which draws through KWin's layer-shell), in
/// fresh HOME and XDG_* folders. Started once per test process, stopped at exit. A compositor that
/// does not start fails the test, never a skip.
///
/// Nothing is exported to the test process's environment: X11 tests may share the process, so
/// tests pass `busAddress` and `environment` on explicitly.
public final class KWinHarness: SharedHarness {
    public let root: URL
    /// The Wayland socket's name in `XDG_RUNTIME_DIR`.
    public let socketName: String
    public var busAddress: String { state.withLock { $0.busAddress } }
    /// HOME, XDG_* (fresh), WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS and the KDE session's
    /// XDG_CURRENT_DESKTOP/XDG_SESSION_TYPE, for child processes (the agent included).
    public var environment: [String: String] { state.withLock { $0.environment } }
    /// KWin's standard error: script `print()` lines land here (`js:`), which `windows()` reads.
    public let kwinLog: URL

    private let processes = HarnessProcesses()
    /// What changes after the start (a restart changes DISPLAY): in a Mutex, so the harness is
    /// Sendable, shared by the tests of a process.
    private let state: Mutex<State>

    private struct State {
        var busAddress = ""
        var environment: [String: String]
        var windowProcesses: [Process] = []
        /// Windows opened so far, restarts included: names their processes and files uniquely.
        var windowsOpened = 0
        var queryCount = 0
    }

    private static let instance = SharedInstance { try KWinHarness() }

    /// The process-wide KWin, started on first use.
    public static func shared() throws -> KWinHarness { try instance.get() }

    private init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-kwin-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        socketName = "screentime-kwin-\(getpid())"
        kwinLog = root.appendingPathComponent("kwin.log")
        var env = try DesktopHarness.freshSessionFolders(under: root)
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "SWAYSOCK", "I3SOCK"] { env[key] = nil }
        env["XDG_CURRENT_DESKTOP"] = "KDE"
        env["XDG_SESSION_TYPE"] = "wayland"
        state = Mutex(State(environment: env))
        // What started before a failure is stopped: a harness that failed is never used again.
        do {
            let busConfig = root.appendingPathComponent("bus.conf")
            try DesktopHarness.busConfig(socketPath: root.appendingPathComponent("bus").path)
                .write(to: busConfig, atomically: true, encoding: .utf8)
            let busOut = Pipe()
            try launch("dbus-daemon", ["--config-file=\(busConfig.path)", "--nofork", "--nopidfile", "--print-address=1"],
                       stdout: busOut)
            let busAddress = try DesktopHarness.readLine(from: busOut, timeout: 10, process: "dbus-daemon")
            state.withLock {
                $0.busAddress = busAddress
                $0.environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
            }

            // /usr/bin/kwin_wayland carries the file capability cap_sys_resource, which a container
            // lacks (exec fails with EPERM); a plain copy has none and runs.
            try FileManager.default.copyItem(atPath: try DesktopHarness.which("kwin_wayland"), toPath: kwinCopy.path)
            guard FileManager.default.createFile(atPath: kwinLog.path, contents: nil) else {
                throw DesktopHarness.Failure.didNotStart("kwin_wayland", "cannot create its log \(kwinLog.path)")
            }
            try startCompositor()
            state.withLock { $0.environment["WAYLAND_DISPLAY"] = socketName }

            let menu = root.appendingPathComponent("dunst-menu").path
            try DunstControl.installMenu(in: menu)
            try DunstControl.dunstrc(menuDirectory: menu).write(to: root.appendingPathComponent("dunstrc"),
                                                                atomically: true, encoding: .utf8)
            try startNotificationServer()
        } catch {
            stop()
            throw error
        }
    }

    private var kwinCopy: URL { root.appendingPathComponent("kwin_wayland") }

    private func startCompositor() throws {
        let log = try FileHandle(forWritingTo: kwinLog)
        log.seekToEndOfFile()
        let compositor = try launch(kwinCopy.path, ["--virtual", "--socket", socketName, "--width", "1280", "--height", "800",
                                                    "--no-lockscreen", "--xwayland"],
                                    extra: ["QT_LOGGING_RULES": "kwin_scripting.debug=true;js.debug=true"],
                                    stderr: log, name: "kwin_wayland")
        let socket = root.appendingPathComponent("run").appendingPathComponent(socketName).path
        try waitNamingLog("kwin_wayland", timeout: 20, alive: compositor) {
            FileManager.default.fileExists(atPath: socket) && self.busNameHasOwner("org.kde.KWin")
                && self.busNameHasOwner("org.kde.NightColor") && self.xwaylandDisplay(of: compositor) != nil
        }
        let display = xwaylandDisplay(of: compositor)
        state.withLock { $0.environment["DISPLAY"] = display }
    }

    /// The X display KWin opened for XWayland: the one whose lock file KWin wrote with its pid.
    private func xwaylandDisplay(of compositor: Process) -> String? {
        let pid = String(compositor.processIdentifier)
        let locks = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for lock in locks where lock.hasPrefix(".X") && lock.hasSuffix("-lock") {
            let owner = (try? String(contentsOfFile: "/tmp/\(lock)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if owner == pid { return ":" + lock.dropFirst(2).dropLast(5) }
        }
        return nil
    }

    /// Stops KWin and starts it again, as after a crash: its windows and dunst (a Wayland
    /// client) go with it; dunst is started again.
    public func restartCompositor() throws {
        processes.stop("kwin_wayland")
        let windows = state.withLock { state in
            defer { state.windowProcesses.removeAll() }
            return state.windowProcesses
        }
        for window in windows { HarnessProcesses.stop(window) }
        try waitFor("KWin leaving the bus", timeout: 5, alive: nil) { !self.busNameHasOwner("org.kde.KWin") }
        try startCompositor()
        processes.stop("dunst")
        try startNotificationServer()
    }

    /// dunst again if it is gone: started while a restarted KWin was still coming up, it can take
    /// its bus name and then exit when the compositor refuses its surface.
    public func ensureNotificationServer() throws {
        guard !busNameHasOwner("org.freedesktop.Notifications") else { return }
        processes.stop("dunst")
        try startNotificationServer()
    }

    /// Starts dunst (on KWin's layer-shell), waiting until it owns its bus name.
    public func startNotificationServer() throws {
        if processes["dunst"]?.isRunning == true { throw DesktopHarness.Failure.didNotStart("dunst", "it is already running") }
        let dunst = try launch("dunst", ["-config", root.appendingPathComponent("dunstrc").path])
        try waitFor("dunst", timeout: 10, alive: dunst) { self.busNameHasOwner("org.freedesktop.Notifications") }
    }

    // MARK: - Windows

    /// Opens a Wayland client window (`weston-flower`: app id org.freedesktop.weston.flower;
    /// `weston-clickdot`: org.freedesktop.weston.wayland-clickdot) and waits until KWin manages it.
    @discardableResult
    /// Whether KWin lists a window of `process`: a count of windows misses a new one that appears
    /// as the last test's window closes.
    private func listsWindow(of process: Process) -> Bool {
        (try? windows().contains { $0.pid == process.processIdentifier }) == true
    }

    public func openWindow(_ program: String = "weston-flower", _ arguments: [String] = []) throws -> Process {
        let log = try FileHandle(forWritingTo: kwinLog)
        log.seekToEndOfFile()
        let window = try launch(program, arguments, stderr: log, name: nextWindowName("window"))
        state.withLock { $0.windowProcesses.append(window) }
        try waitNamingLog(program, timeout: 10, alive: window) { self.listsWindow(of: window) }
        return window
    }

    /// A terminal whose shell sets each line written to `setTitle` as the window's title (OSC 2).
    public struct Terminal {
        public let process: Process
        let titles: TitleFeed
    }

    /// A weston-terminal: app id org.freedesktop.weston.wayland-terminal.
    public func openTerminal() throws -> Terminal {
        let titles = try TitleFeed(in: root)
        let terminal = try launch("weston-terminal", ["--shell=\(try titles.script().path)"], name: nextWindowName("terminal"))
        state.withLock { $0.windowProcesses.append(terminal) }
        try waitFor("weston-terminal", timeout: 10, alive: terminal) { self.listsWindow(of: terminal) }
        return Terminal(process: terminal, titles: titles)
    }

    /// Opens an xterm on KWin's XWayland with WM_CLASS `instance`/`xClass` (and xterm's `arguments`
    /// after those) and waits until KWin manages it.
    @discardableResult
    public func openXWindow(xClass: String, instance: String, arguments: [String] = []) throws -> Process {
        let xterm = try launch("xterm", ["-class", xClass, "-name", instance] + arguments, name: nextWindowName("xterm"))
        state.withLock { $0.windowProcesses.append(xterm) }
        try waitFor("xterm on XWayland", timeout: 10, alive: xterm) { self.listsWindow(of: xterm) }
        return xterm
    }

    /// An xterm on KWin's XWayland with WM_CLASS `xClass` (instance and class) and `title`, renamed
    /// through `setTitle`.
    public func openXTerminal(xClass: String, title: String) throws -> Terminal {
        let titles = try TitleFeed(in: root)
        let xterm = try openXWindow(xClass: xClass, instance: xClass, arguments: ["-title", title, "-e"] + titles.shellCommand)
        return Terminal(process: xterm, titles: titles)
    }

    /// Sets the terminal's title, as a program in it would.
    public func setTitle(_ title: String, of terminal: Terminal) throws { try terminal.titles.set(title) }

    private func nextWindowName(_ kind: String) -> String {
        let opened = state.withLock { state in
            state.windowsOpened += 1
            return state.windowsOpened
        }
        return "\(kind)-\(opened)"
    }

    /// Closes a window opened with `openWindow`, waiting until KWin no longer lists it.
    public func closeWindow(_ window: Process) throws {
        let pid = window.processIdentifier
        window.terminate()
        window.waitUntilExit()
        try waitFor("window exit", timeout: 5, alive: nil) { (try? self.windows().contains { $0.pid == pid }) == false }
    }

    /// One window as KWin's scripting API reports it.
    public struct Window: Decodable, Equatable {
        public var id: String
        public var appID: String
        public var resourceClass: String
        public var pid: Int32
        public var caption: String
        public var minimized: Bool
        public var active: Bool
    }

    /// Every managed client window, read by a one-off KWin script that prints them as JSON.
    public func windows() throws -> [Window] {
        let answer = try runScript("""
            var out = [];
            for (var i = 0; i < windows.length; i++) {
                var c = windows[i];
                out.push({id: String(c.internalId), appID: String(c.desktopFileName), resourceClass: String(c.resourceClass),
                          pid: c.pid, caption: String(c.caption), minimized: c.minimized, active: c.active});
            }
            answer(JSON.stringify(out));
            """)
        return try JSONDecoder().decode([Window].self, from: Data(answer.utf8))
    }

    /// Activates the window of process `pid` as a user's click would (KWin unminimizes it).
    public func activate(pid: Int32) throws {
        let answer = try runScript("""
            var found = false;
            for (var i = 0; i < windows.length; i++) {
                if (windows[i].pid == \(pid)) {
                    if ("activeWindow" in workspace) workspace.activeWindow = windows[i]; else workspace.activeClient = windows[i];
                    found = true;
                }
            }
            answer(String(found));
            """)
        if answer != "true" { throw DesktopHarness.Failure.didNotStart("activating pid \(pid)", "KWin has no window of it") }
    }

    /// Runs `body` as a one-off KWin script, with `windows` (every client window) and `answer(text)`
    /// defined; returns the text it answered. The answer travels through KWin's standard error
    /// (script `print()`), and the script unloads itself.
    private func runScript(_ body: String) throws -> String {
        let query = state.withLock { state in
            state.queryCount += 1
            return state.queryCount
        }
        let marker = "screentime-query-\(query)"
        let script = root.appendingPathComponent("\(marker).js")
        try """
        var windows = workspace.windowList ? workspace.windowList() : workspace.clientList();
        function answer(text) { print("\(marker) " + text); }
        \(body)
        callDBus("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", "\(marker)");
        """.write(to: script, atomically: true, encoding: .utf8)
        try callKWin(path: "/Scripting", interface: "org.kde.kwin.Scripting", method: "loadScript",
                     arguments: [.string(script.path), .string(marker)])
        try callKWin(path: "/Scripting", interface: "org.kde.kwin.Scripting", method: "start")
        let prefix = "js: \(marker) "
        var found: String?
        _ = eventually(5) {
            found = kwinLogText.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            return found != nil
        }
        guard let found else { throw DesktopHarness.Failure.didNotStart("KWin script \(marker)", "no answer in \(kwinLog.path)") }
        return found
    }

    public var kwinLogText: String { (try? String(contentsOf: kwinLog, encoding: .utf8)) ?? "" }

    // MARK: - Bus

    /// Calls `method` on KWin and waits for the reply (tests only).
    @discardableResult
    public func callKWin(path: String, interface: String, method: String, arguments: [BusValue] = []) throws -> [BusValue] {
        let bus = try BusConnection(address: busAddress)
        defer { bus.close() }
        return try bus.call(destination: "org.kde.KWin", path: path, interface: interface, method: method,
                            arguments: arguments)
    }

    /// A property of KWin's Night Light (`/ColorCorrect`, org.kde.kwin.ColorCorrect, KWin 5.27).
    public func nightLight(_ property: String) throws -> BusValue? {
        try callKWin(path: "/ColorCorrect", interface: "org.freedesktop.DBus.Properties", method: "Get",
                     arguments: [.string("org.kde.kwin.ColorCorrect"), .string(property)]).first
    }

    public func busNameHasOwner(_ name: String) -> Bool {
        guard let bus = try? BusConnection(address: busAddress) else { return false }
        defer { bus.close() }
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", method: "NameHasOwner", arguments: [.string(name)])
        return reply?.first?.boolValue == true
    }

    /// kwinrc in the harness's config folder, where KWin reads its settings.
    public var kwinrc: URL { URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("kwinrc") }

    public func stop() {
        for window in state.withLock({ $0.windowProcesses }) where window.isRunning { window.terminate() }
        for name in ["dunst", "kwin_wayland", "dbus-daemon"] { processes.stop(name) }
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - Processes

    @discardableResult
    private func launch(_ program: String, _ arguments: [String], extra: [String: String] = [:], stdout: Pipe? = nil,
                        stderr: FileHandle? = nil, name: String? = nil) throws -> Process {
        try processes.launch(program, arguments, environment: environment.merging(extra) { $1 }, name: name ?? program,
                             stdout: stdout, stderr: stderr)
    }

    private func waitFor(_ what: String, timeout: TimeInterval, alive: Process?, _ ready: () -> Bool) throws {
        try DesktopHarness.waitFor(what, timeout: timeout, alive: alive, ready)
    }

    /// `waitFor`, its failure naming the last lines of KWin's log, where KWin and the windows
    /// started beside it say why they did not start.
    private func waitNamingLog(_ what: String, timeout: TimeInterval, alive: Process?, _ ready: () -> Bool) throws {
        do {
            try waitFor(what, timeout: timeout, alive: alive, ready)
        } catch {
            let said = (try? String(contentsOf: kwinLog, encoding: .utf8)) ?? ""
            throw DesktopHarness.Failure.didNotStart(what, "\(error); the log's last words: "
                                                     + said.split(separator: "\n").suffix(8).joined(separator: " | "))
        }
    }
}
