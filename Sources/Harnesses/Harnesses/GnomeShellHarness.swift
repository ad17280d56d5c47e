import Foundation
import SessionBus

/// A real GNOME Shell for tests, headless on Wayland (`--virtual-monitor 1280x800`), with the
/// project's extension built from `desktop/gnome-shell` into its data folder and enabled before
/// the shell starts, in test mode (`testing-unsafe-mode`: org.gnome.Shell.Screenshot open, a
/// testing interface). Its own session `dbus-daemon` (the standard session config, so dconf is
/// activated) and a private bus standing in as the system bus. Started once per test process,
/// stopped at exit. A shell that does not start fails the test.
public final class GnomeShellHarness: SharedHarness {
    public static let extensionUUID = "screentime@screentime.org"
    public static let shellBusName = "org.screentime.Shell"
    public static let shellPath = "/org/screentime/Shell"
    /// An app with a desktop entry the shell has loaded at start (Shell.WindowTracker names its
    /// windows by it); other test app ids have none.
    public static let appWithDesktopEntry = "org.screentime.test.Named"

    public let root: URL
    public let waylandDisplay = "wayland-screentime"
    /// HOME, XDG_* (fresh temp folders), WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS, a GNOME
    /// session's XDG_CURRENT_DESKTOP and XDG_SESSION_TYPE, no DISPLAY: for child processes.
    public private(set) var environment: [String: String]
    public private(set) var busAddress = ""
    /// The test's own connection, for calls to the shell.
    public private(set) var bus: BusConnection!

    private let systemBus: PrivateBus
    private var sessionBus: Process?
    private var shell: Process?
    private var apps: [Process] = []

    /// A window as the extension lists it.
    public struct Window: Equatable {
        public var id: UInt64
        public var wmClass: String
        public var pid: UInt32
        public var title: String
        public var minimized: Bool
    }

    private static let instance = SharedInstance { try GnomeShellHarness() }

    /// The process-wide GNOME Shell, started on first use.
    public static func shared() throws -> GnomeShellHarness { try instance.get() }

    private init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-gnome-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "SWAYSOCK", "XAUTHORITY"] { env[key] = nil }
        for (key, sub) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "home/.config"),
                           ("XDG_DATA_HOME", "home/.local/share"), ("XDG_CACHE_HOME", "home/.cache"),
                           ("XDG_STATE_HOME", "home/.local/state")] {
            let url = root.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            env[key] = url.path
        }
        env["XDG_CURRENT_DESKTOP"] = "GNOME"
        env["XDG_SESSION_TYPE"] = "wayland"
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["GDK_BACKEND"] = "wayland"
        systemBus = try PrivateBus(directory: root.appendingPathComponent("system-bus"))
        env["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment = env

        try installExtension()
        let applications = URL(fileURLWithPath: env["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Named\nExec=foot\n"
            .write(to: applications.appendingPathComponent(Self.appWithDesktopEntry + ".desktop"), atomically: true, encoding: .utf8)
        let busOut = Pipe()
        sessionBus = try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"], stdout: busOut)
        busAddress = try DesktopHarness.readLine(from: busOut, timeout: 10, process: "dbus-daemon")
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        bus = try BusConnection(address: busAddress)
        // Before the shell starts: its extensions and settings as a user's session has them.
        for (schema, key, value) in [("org.gnome.shell", "enabled-extensions", "['\(Self.extensionUUID)']"),
                                     ("org.gnome.desktop.interface", "enable-animations", "false")] {
            try run("gsettings", ["set", schema, key, value])
        }
        var shellEnvironment = environment
        shellEnvironment["WAYLAND_DISPLAY"] = nil
        shellEnvironment["GDK_BACKEND"] = nil
        // ResetIdletime fakes user activity for the idle tests.
        shellEnvironment["MUTTER_DEBUG_RESET_IDLETIME"] = "1"
        let log = root.appendingPathComponent("gnome-shell.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        shell = try launch("gnome-shell", ["--headless", "--wayland", "--no-x11", "--wayland-display=\(waylandDisplay)",
                                           "--virtual-monitor", "1280x800"],
                           environment: shellEnvironment, stderr: try FileHandle(forWritingTo: log))
        try waitUntil("GNOME Shell with the screentime extension (log: \(log.path))", timeout: 60, alive: shell) {
            self.busNameHasOwner(Self.shellBusName)
        }
    }

    /// The extension folder as the shell loads it, built by the script install.sh uses too.
    private func installExtension() throws {
        let source = Self.repositoryRoot.appendingPathComponent("desktop/gnome-shell")
        let destination = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!)
            .appendingPathComponent("gnome-shell/extensions/\(Self.extensionUUID)")
        try run("/bin/sh", [source.appendingPathComponent("build.sh").path, destination.path])
        _ = FileManager.default.createFile(atPath: destination.appendingPathComponent("testing-unsafe-mode").path, contents: nil)
    }

    /// The checkout this test binary was built from.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    // MARK: - Windows

    /// Starts a terminal whose Wayland app_id is `appID`, running `command`, and waits until the
    /// shell lists (and focuses) its window.
    @discardableResult
    public func openWindow(appID: String, command: [String] = ["sleep", "3600"], timeout: TimeInterval = 20) throws -> Window {
        let before = Set(try windows().map(\.id))
        let app = try launch("foot", ["--app-id", appID] + command)
        apps.append(app)
        var opened: Window?
        try waitUntil("a window of \(appID)", timeout: timeout, alive: app) {
            opened = (try? self.windows())?.first { !before.contains($0.id) && $0.wmClass == appID }
            return opened != nil && (try? self.focusedWindowID()) == opened?.id
        }
        return opened!
    }

    /// Closes the window of the app with process `pid` that the harness opened.
    public func closeWindow(pid: UInt32) {
        guard let index = apps.firstIndex(where: { $0.processIdentifier == Int32(bitPattern: pid) }) else { return }
        let app = apps.remove(at: index)
        app.terminate()
        app.waitUntilExit()
    }

    /// Closes every window the harness opened.
    public func closeWindows() {
        for app in apps where app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
        apps.removeAll()
    }

    public func windows() throws -> [Window] {
        let reply = try callShell("ListWindows")
        return (reply.first?.arrayValue ?? []).compactMap { value in
            guard case .structure(let fields) = value, fields.count == 8, let id = fields[0].uint64Value,
                  let wmClass = fields[2].stringValue, let pid = fields[5].uint32Value,
                  let title = fields[6].stringValue, let minimized = fields[7].boolValue else { return nil }
            return Window(id: id, wmClass: wmClass, pid: pid, title: title, minimized: minimized)
        }
    }

    public func focusedWindowID() throws -> UInt64? {
        guard case .structure(let fields)? = try callShell("GetFocus").first, let id = fields.first?.uint64Value, id != 0
        else { return nil }
        return id
    }

    /// Unminimizes and focuses a window, as a click on it in the overview would.
    public func activate(_ window: UInt64) throws {
        _ = try callShell("Activate", [.uint64(window)], interface: "org.screentime.Shell.Testing")
    }

    /// Runs a notification's action as a click on its button in GNOME's banner would; false when
    /// the shell shows no notification titled `title` with that button.
    public func invokeNotificationAction(title: String, label: String) throws -> Bool {
        try callShell("InvokeNotificationAction", [.string(title), .string(label)],
                      interface: "org.screentime.Shell.Testing").first?.boolValue ?? false
    }

    /// Turns the extension off or on as the Extensions app would (the shell follows the setting).
    public func setExtensionEnabled(_ enabled: Bool) throws {
        try run("gsettings", ["set", "org.gnome.shell", "enabled-extensions", enabled ? "['\(Self.extensionUUID)']" : "[]"])
        try waitUntil("the extension \(enabled ? "enabled" : "disabled")") { busNameHasOwner(Self.shellBusName) == enabled }
    }

    public func callShell(_ method: String, _ arguments: [BusValue] = [], interface: String = "org.screentime.Shell") throws -> [BusValue] {
        try bus.call(destination: Self.shellBusName, path: Self.shellPath, interface: interface, method: method,
                     arguments: arguments)
    }

    // MARK: - Screen and input

    /// The screen now, as GNOME Shell's screenshot service writes it.
    public func screenshot() throws -> PNGImage {
        let path = root.appendingPathComponent("shot-\(UUID().uuidString.prefix(8)).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try bus.call(destination: "org.gnome.Shell.Screenshot", path: "/org/gnome/Shell/Screenshot",
                         interface: "org.gnome.Shell.Screenshot", method: "Screenshot",
                         arguments: [.bool(false), .bool(false), .string(path)], timeout: .seconds(10))
        return try PNGImage(contentsOf: path)
    }

    /// The screen once it stopped changing in `rows` (a new window draws its first frames after
    /// the shell lists it): two screenshots in a row alike there.
    public func settledScreenshot(rows: Range<Int>, timeout: TimeInterval = 10) throws -> PNGImage {
        var previous = try screenshot()
        var settled: PNGImage?
        try waitUntil("the screen to settle", timeout: timeout) {
            guard let next = try? screenshot() else { return false }
            defer { previous = next }
            if next.rows(rows) == previous.rows(rows) { settled = next }
            return settled != nil
        }
        return settled!
    }

    /// Fakes user input: Mutter's idle time starts again from zero.
    public func resetIdletime() throws {
        _ = try bus.call(destination: "org.gnome.Mutter.IdleMonitor", path: "/org/gnome/Mutter/IdleMonitor/Core",
                         interface: "org.gnome.Mutter.IdleMonitor", method: "ResetIdletime")
    }

    public func busNameHasOwner(_ name: String) -> Bool {
        (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                       method: "NameHasOwner", arguments: [.string(name)]).first?.boolValue) == true
    }

    /// Dispatches `connection` (a provider's, driven as the agent's loop would) until `condition`
    /// holds, failing after `timeout` seconds.
    public func pump(_ connection: BusConnection, _ what: String, timeout: TimeInterval = 10, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try connection.dispatchPending()
            if condition() { return }
            guard Date() < deadline else { throw DesktopHarness.Failure.didNotStart(what, "not seen within \(timeout) s") }
            var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 50)
        }
    }

    /// Polls `condition` every 50 ms, failing after `timeout` seconds.
    public func waitUntil(_ what: String, timeout: TimeInterval = 10, alive: Process? = nil, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if let alive, !alive.isRunning { throw DesktopHarness.Failure.didNotStart(what, "it exited with \(alive.terminationStatus)") }
            guard Date() < deadline else { throw DesktopHarness.Failure.didNotStart(what, "not ready after \(timeout) s") }
            usleep(50_000)
        }
    }

    // MARK: - Processes

    public func stop() {
        closeWindows()
        bus?.close()
        for process in [shell, sessionBus].compactMap({ $0 }) { HarnessProcesses.stop(process) }
        shell = nil
        sessionBus = nil
        systemBus.kill()
    }

    private func launch(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                        stdout: Pipe? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = try HarnessProcesses.process(program, arguments, environment: environment ?? self.environment,
                                                   stdout: stdout, stderr: stderr)
        try process.run()
        return process
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        let process = try launch(program, arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DesktopHarness.Failure.didNotStart("\(program) \(arguments.joined(separator: " "))",
                                                     "it exited with \(process.terminationStatus)")
        }
    }
}
