import Foundation
import SessionBus
import Synchronization

/// A real GNOME Shell for tests, headless on Wayland (`--virtual-monitor 1280x800`), with the
/// project's extension built from `desktop/gnome-shell` into its data folder and enabled before
/// the shell starts, in test mode (`testing-unsafe-mode`: org.gnome.Shell.Screenshot open, a
/// testing interface). Its own session `dbus-daemon` (the standard session config, so dconf is
/// activated) and a private bus standing in as the system bus. The shared one, English and left to
/// right, is started once per test process and stopped at exit; a test of another language or
/// text direction starts one of its own (`init(language:textDirection:)`), stopped when released.
/// A shell that does not start fails the test.
public final class GnomeShellHarness: SharedHarness {
    public static let extensionUUID = "screentime@screentime.org"
    public static let shellBusName = "org.screentime.Shell"
    public static let shellPath = "/org/screentime/Shell"
    /// An app with a desktop entry the shell has loaded at start (Shell.WindowTracker names its
    /// windows by it); other test app ids have none.
    public static let appWithDesktopEntry = "org.screentime.test.Named"

    public let root: URL
    public let waylandDisplay: String
    private let isShared: Bool
    /// HOME, XDG_* (fresh temp folders), WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS, a GNOME
    /// session's XDG_CURRENT_DESKTOP and XDG_SESSION_TYPE, no DISPLAY: for child processes.
    public var environment: [String: String] { state.withLock { $0.environment } }
    public var busAddress: String { state.withLock { $0.busAddress } }
    /// The gnome-shell process (0 before it started), for the benchmarks' CPU figures.
    public var shellPID: Int32 { state.withLock { $0.shell?.processIdentifier ?? 0 } }

    /// The test's own connection, for calls to the shell: in a Mutex of its own, as it is not
    /// Sendable and a call can wait seconds for the shell.
    private let bus = Mutex<BusConnection?>(nil)
    private let systemBus: PrivateBus
    /// What is known once the session bus runs, and the processes started: in a Mutex, so the
    /// harness is Sendable, shared by the tests of a process.
    private let state: Mutex<State>

    private struct State {
        var environment: [String: String]
        var busAddress = ""
        var sessionBus: Process?
        var shell: Process?
        var apps: [Process] = []
    }

    /// A window as the extension lists it.
    public struct Window: Equatable {
        public var id: UInt64
        public var wmClass: String
        public var pid: UInt32
        public var title: String
        public var minimized: Bool
    }

    private static let instance = SharedInstance { try GnomeShellHarness(language: nil, textDirection: nil, shared: true) }

    /// The process-wide GNOME Shell, started on first use.
    public static func shared() throws -> GnomeShellHarness { try instance.get() }

    /// A shell of the caller's own, its messages in `language` (GNU gettext's LANGUAGE) and Clutter's
    /// text direction `textDirection` (`rtl`, `ltr`), stopped when released.
    public convenience init(language: String?, textDirection: String? = nil) throws {
        try self.init(language: language, textDirection: textDirection, shared: false)
    }

    private init(language: String?, textDirection: String?, shared: Bool) throws {
        let name = shared ? "screentime" : "screentime-\(language ?? "en")-\(textDirection ?? "ltr")"
        isShared = shared
        waylandDisplay = "wayland-\(name)"
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-gnome-\(getpid())")
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
        state = Mutex(State(environment: env))

        try installExtension()
        let applications = URL(fileURLWithPath: env["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Named\nExec=foot\n"
            .write(to: applications.appendingPathComponent(Self.appWithDesktopEntry + ".desktop"), atomically: true, encoding: .utf8)
        let busOut = Pipe()
        let sessionBus = try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"], stdout: busOut)
        state.withLock { $0.sessionBus = sessionBus }
        let busAddress = try DesktopHarness.readLine(from: busOut, timeout: 10, process: "dbus-daemon")
        state.withLock {
            $0.busAddress = busAddress
            $0.environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        }
        try bus.withLock { $0 = try BusConnection(address: busAddress) }
        // Before the shell starts: its extensions and settings as a user's session has them.
        for (schema, key, value) in [("org.gnome.shell", "enabled-extensions", "['\(Self.extensionUUID)']"),
                                     ("org.gnome.desktop.interface", "enable-animations", "false")] {
            try run("gsettings", ["set", schema, key, value])
        }
        try installLinkRecorder()
        var shellEnvironment = environment
        // The extension's "Open report" runs the `screentime` built beside the tests.
        shellEnvironment["PATH"] = AgentProcess.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        shellEnvironment["WAYLAND_DISPLAY"] = nil
        shellEnvironment["GDK_BACKEND"] = nil
        // ResetIdletime fakes user activity for the idle tests.
        shellEnvironment["MUTTER_DEBUG_RESET_IDLETIME"] = "1"
        shellEnvironment["LANGUAGE"] = language
        shellEnvironment["CLUTTER_TEXT_DIRECTION"] = textDirection
        let log = root.appendingPathComponent("gnome-shell.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let shell = try launch("gnome-shell", ["--headless", "--wayland", "--no-x11", "--wayland-display=\(waylandDisplay)",
                                               "--virtual-monitor", "1280x800"],
                               environment: shellEnvironment, stderr: try FileHandle(forWritingTo: log))
        state.withLock { $0.shell = shell }
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

    /// Where the shell's default web browser, a stand-in, writes each link it is given.
    public var openedLinks: URL { root.appendingPathComponent("opened-links") }

    /// The shell's default handler of web pages: a desktop entry recording the link, so no
    /// browser starts and a test sees what the shell opened.
    private func installLinkRecorder() throws {
        let home = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!)
        let entry = "[Desktop Entry]\nType=Application\nName=Link Recorder\nNoDisplay=true\nMimeType=text/html;x-scheme-handler/http;\n"
            + "Exec=/bin/sh -c 'echo \"$1\" >> \(openedLinks.path)' sh %u\n"
        try entry.write(to: home.appendingPathComponent("applications/screentime-link-recorder.desktop"), atomically: true, encoding: .utf8)
        let config = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!)
        try "[Default Applications]\ntext/html=screentime-link-recorder.desktop\nx-scheme-handler/http=screentime-link-recorder.desktop\n"
            .write(to: config.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
    }

    /// The checkout this test binary was built from.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    // MARK: - Windows

    /// Starts a terminal whose Wayland app_id is `appID` (titled `title` when given), running
    /// `command`, and waits until the shell lists (and focuses) its window.
    @discardableResult
    public func openWindow(appID: String, title: String? = nil, command: [String] = ["sleep", "3600"], timeout: TimeInterval = 20) throws -> Window {
        let before = Set(try windows().map(\.id))
        let app = try launch("foot", ["--app-id", appID] + (title.map { ["--title", $0] } ?? []) + command)
        state.withLock { $0.apps.append(app) }
        var opened: Window?
        try waitUntil("a window of \(appID)", timeout: timeout, alive: app) {
            opened = (try? self.windows())?.first { !before.contains($0.id) && $0.wmClass == appID }
            return opened != nil && (try? self.focusedWindowID()) == opened?.id
        }
        return opened!
    }

    /// Closes the window of the app with process `pid` that the harness opened.
    public func closeWindow(pid: UInt32) {
        let opened = state.withLock { state -> Process? in
            guard let index = state.apps.firstIndex(where: { $0.processIdentifier == Int32(bitPattern: pid) }) else { return nil }
            return state.apps.remove(at: index)
        }
        guard let app = opened else { return }
        app.terminate()
        app.waitUntilExit()
    }

    /// Closes every window the harness opened.
    public func closeWindows() {
        let apps = state.withLock { state in
            defer { state.apps.removeAll() }
            return state.apps
        }
        for app in apps where app.isRunning {
            app.terminate()
            app.waitUntilExit()
        }
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

    /// Sets a key as the user's own switch in the shell does, written by the shell itself (a
    /// `gsettings set` from outside can deadlock GNOME 43 applying it: see service.js's
    /// notificationSettings); `path` for a relocatable schema. `value`: nil resets the key.
    public func writeSetting(_ schema: String, path: String = "", key: String, _ value: BusValue?) throws {
        if let value {
            _ = try callShell("WriteSetting", [.string(schema), .string(path), .string(key), .variant(value)], interface: "org.screentime.Shell.Testing")
        } else {
            _ = try callShell("ResetSetting", [.string(schema), .string(path), .string(key)], interface: "org.screentime.Shell.Testing")
        }
    }

    /// The top-bar indicator and the Quick Settings menu as the extension shows them now
    /// (indicator.js's test-only Probe): `visible`, `showInTopBar` (the setting), `text`, `icon` (the icon file's name),
    /// `items` (the menu's labels), `updatedAt` (the shell's monotonic clock, µs, at the last
    /// change of the top bar's text or icon).
    public func indicator() throws -> [String: Any] {
        let json = try callShell("Probe", interface: "org.screentime.Shell.IndicatorTesting").first?.stringValue ?? ""
        return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
    }

    /// Activates the Quick Settings menu's item labelled `label`, as a click or Enter on it
    /// would; false when the menu has no such active item.
    public func activateMenuItem(_ label: String) throws -> Bool {
        try callShell("ActivateMenuItem", [.string(label)], interface: "org.screentime.Shell.IndicatorTesting").first?.boolValue ?? false
    }

    /// Turns the extension off or on as the Extensions app does, through the shell's
    /// org.gnome.Shell.Extensions: the shell writes `enabled-extensions` itself. (A `gsettings set`
    /// from outside can deadlock GNOME 43 applying it: see service.js's notificationSettings.)
    public func setExtensionEnabled(_ enabled: Bool) throws {
        _ = try bus.withLock {
            try $0!.call(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
                         method: enabled ? "EnableExtension" : "DisableExtension", arguments: [.string(Self.extensionUUID)])
        }
        try waitUntil("the extension \(enabled ? "enabled" : "disabled")") { busNameHasOwner(Self.shellBusName) == enabled }
    }

    public func callShell(_ method: String, _ arguments: [BusValue] = [], interface: String = "org.screentime.Shell") throws -> [BusValue] {
        do {
            return try bus.withLock {
                try $0!.call(destination: Self.shellBusName, path: Self.shellPath, interface: interface, method: method,
                             arguments: arguments)
            }
        } catch let error as BusMethodError where error.name == BusMethodError.noReply {
            throw ShellSilent(method: method, report: hangReport())
        }
    }

    /// The shell did not answer a call in time: what it was doing then is in `report`.
    public struct ShellSilent: Error, CustomStringConvertible {
        public var method: String
        public var report: String
        public var description: String { "GNOME Shell did not answer \(method); \(report)" }
    }

    /// Where a silent shell was, for the test log: its scheduler state and CPU time, and every
    /// thread's stack, through gdb. (Not gjs's JavaScript stack: a call into a shell stuck on a
    /// futex aborts it.) Written once per shell, to `shell-silent.txt` in its folder; later calls
    /// name the file.
    private func hangReport() -> String {
        let file = root.appendingPathComponent("shell-silent.txt")
        if FileManager.default.fileExists(atPath: file.path) { return "as before: \(file.path)" }
        let pid = shellPID
        let state = ProcessMeasures.statFields(pid).first.map(String.init) ?? "gone"
        let cpu = ProcessMeasures.cpuSeconds(pid)
        let summary = "pid \(pid), state \(state), CPU \(cpu.user + cpu.system) s"
        var stacks = "(no gdb)"
        let out = Pipe()
        if let gdb = try? HarnessProcesses.process("gdb", ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt 30"],
                                                   environment: nil, stdout: out),
           (try? gdb.run()) != nil {
            stacks = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            gdb.waitUntilExit()
        }
        let log = (try? String(contentsOf: root.appendingPathComponent("gnome-shell.log"), encoding: .utf8)) ?? ""
        let report = "\(summary)\n\(stacks)\n--- the end of gnome-shell.log ---\n\(log.suffix(6000))"
        try? report.write(to: file, atomically: true, encoding: .utf8)
        print("GNOME Shell stopped answering: \(report)")
        return "\(summary); in \(file.path):\n\(report.prefix(12000))"
    }

    /// `activate(_:)` without waiting for the shell's answer, which `dispatchAnswers()` reads
    /// later: for a benchmark timing what follows the request.
    public func requestActivation(_ window: UInt64) throws {
        try bus.withLock { bus in
            try bus!.send(destination: Self.shellBusName, path: Self.shellPath, interface: "org.screentime.Shell.Testing",
                          method: "Activate", arguments: [.uint64(window)]) { _ in }
            bus!.flush()
        }
    }

    /// Reads the answers that came to the harness's connection.
    public func dispatchAnswers() throws {
        try bus.withLock { try $0!.dispatchPending() }
    }

    // MARK: - Screen and input

    /// The screen now, as GNOME Shell's screenshot service writes it.
    public func screenshot() throws -> PNGImage {
        let path = root.appendingPathComponent("shot-\(UUID().uuidString.prefix(8)).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try bus.withLock {
            try $0!.call(destination: "org.gnome.Shell.Screenshot", path: "/org/gnome/Shell/Screenshot",
                         interface: "org.gnome.Shell.Screenshot", method: "Screenshot",
                         arguments: [.bool(false), .bool(false), .string(path)], timeout: .seconds(10))
        }
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
        _ = try bus.withLock {
            try $0!.call(destination: "org.gnome.Mutter.IdleMonitor", path: "/org/gnome/Mutter/IdleMonitor/Core",
                         interface: "org.gnome.Mutter.IdleMonitor", method: "ResetIdletime")
        }
    }

    public func busNameHasOwner(_ name: String) -> Bool {
        bus.withLock {
            (try? $0!.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                           method: "NameHasOwner", arguments: [.string(name)]).first?.boolValue) == true
        }
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

    /// Polls `condition`, failing when `alive` exits or `timeout` passes first (`DesktopHarness.waitFor`).
    public func waitUntil(_ what: String, timeout: TimeInterval = 10, alive: Process? = nil, _ condition: () -> Bool) throws {
        try DesktopHarness.waitFor(what, timeout: timeout, alive: alive, condition)
    }

    // MARK: - Processes

    public func stop() {
        closeWindows()
        bus.withLock { $0?.close() }
        let processes = state.withLock { state in
            defer { (state.shell, state.sessionBus) = (nil, nil) }
            return [state.shell, state.sessionBus].compactMap { $0 }
        }
        for process in processes { HarnessProcesses.stop(process) }
        systemBus.kill()
    }

    deinit {
        guard !isShared else { return }
        stop()
        try? FileManager.default.removeItem(at: root)
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
