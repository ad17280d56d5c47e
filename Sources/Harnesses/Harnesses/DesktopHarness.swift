import CX11
import Foundation
import Synchronization

/// A real, private desktop for tests: Xvfb (`-noreset`, so gamma ramps survive clients leaving),
/// openbox, a session `dbus-daemon` and dunst. Started once per test process, stopped at exit.
/// A missing program is an error that fails the test, never a skip.
public final class DesktopHarness: SharedHarness {
    public let display: String
    public let busAddress: String
    /// HOME, XDG_* (fresh temp folders), DISPLAY and DBUS_SESSION_BUS_ADDRESS for child processes.
    public let environment: [String: String]
    public let root: URL
    public var runtimeDirectory: String { environment["XDG_RUNTIME_DIR"]! }

    private let processes = HarnessProcesses()

    public enum Failure: Error, CustomStringConvertible {
        case missingProgram(String)
        case didNotStart(String, String)
        /// A part of the desktop that started did not do what a test asked of it.
        case didNotAnswer(String, String)
        public var description: String {
            switch self {
            case .missingProgram(let p): return "\(p) is not installed: the desktop tests need it (.ci/run installs it)"
            case .didNotStart(let p, let why): return "\(p) did not start: \(why)"
            case .didNotAnswer(let p, let why): return "\(p) did not answer: \(why)"
            }
        }
    }

    private static let instance = SharedInstance { () throws -> DesktopHarness in
        let harness = try DesktopHarness()
        harness.exportToProcess()
        return harness
    }

    /// The process-wide desktop, started on first use.
    public static func shared() throws -> DesktopHarness { try instance.get() }

    /// dunst's configuration, with the context menu tests choose actions through.
    private let dunstrc: String

    /// A second desktop of its own (Xvfb, openbox, bus, dunst), beside the shared one: another
    /// computer, for the tests of what two computers share. One per name in this process, stopped at exit.
    public static func separate(named name: String) throws -> DesktopHarness {
        let instance = separateInstances.withLock { instances in
            let instance = instances[name] ?? SharedInstance { try DesktopHarness(name: name) }
            instances[name] = instance
            return instance
        }
        return try instance.get()
    }

    private static let separateInstances = Mutex<[String: SharedInstance<DesktopHarness>]>([:])

    private init(name: String = "desk") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        var env = try Self.freshSessionFolders(under: root)
        // Xvfb and the bus start before the bus's address completes the environment.
        let display = try Self.launchXvfb(processes, ["-noreset"], environment: env)
        self.display = display
        env["DISPLAY"] = display

        let busOut = Pipe()
        try processes.launch("dbus-daemon", ["--config-file=\(try Self.writeBusConfig(under: root))", "--nofork", "--nopidfile",
                                             "--print-address=1"], environment: env, name: "dbus-daemon", stdout: busOut)
        busAddress = try Self.readLine(from: busOut, timeout: 10, process: "dbus-daemon")
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment = env
        let menu = root.appendingPathComponent("dunst-menu").path
        dunstrc = DunstControl.dunstrc(menuDirectory: menu)

        let openbox = try launch("openbox", ["--sm-disable", "--config-file", try writeOpenboxConfig()])
        try waitFor("openbox", timeout: 10, alive: openbox) { Self.hasWindowManager(display) }
        // openbox claims the screen before it enters its loop, and what a client asks in between
        // is lost: a window mapped then stayed unmanaged, and the first probe of a fresh openbox
        // goes unanswered while the next is answered at once. Probe until one is answered.
        let probe = try TestWindowClient(display: display)
        try waitFor("openbox", timeout: 10, alive: openbox) { probe.syncWithWindowManager(timeout: 0.2) }

        try DunstControl.installMenu(in: menu)
        try startNotificationServer()
    }

    /// This process's environment with HOME and every XDG_* base folder fresh (0700) under
    /// `root`, so nothing a desktop writes reaches the real home.
    static func freshSessionFolders(under root: URL) throws -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (key, sub) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "home/.config"),
                           ("XDG_DATA_HOME", "home/.local/share"), ("XDG_CACHE_HOME", "home/.cache")] {
            let url = root.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            env[key] = url.path
        }
        return env
    }

    private static func writeBusConfig(under root: URL) throws -> String {
        let url = root.appendingPathComponent("bus.conf")
        try busConfig(socketPath: "\(root.path)/bus").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A session bus on `socketPath` that lets every client own, send and eavesdrop, and activates
    /// no services: with the standard service directories it would start the system's dunst by
    /// itself whenever a test has stopped ours. `everyUser`: any uid may connect, not only the
    /// daemon's (sway's clients run unprivileged).
    public static func busConfig(socketPath: String, everyUser: Bool = false) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>unix:path=\(socketPath)</listen>
          <policy context="default">\(everyUser ? "\n    <allow user=\"*\"/>" : "")
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// Starts dunst (again, after `stopNotificationServer()`), waiting until it owns its bus name.
    /// A second start while one runs is a test's mistake: it would leave a dunst the harness no
    /// longer knows, which no later `stopNotificationServer()` could stop.
    public func startNotificationServer() throws {
        if processes["dunst"]?.isRunning == true { throw Failure.didNotStart("dunst", "it is already running") }
        let dunstrc = root.appendingPathComponent("dunstrc")
        try self.dunstrc.write(to: dunstrc, atomically: true, encoding: .utf8)
        let dunst = try launch("dunst", ["-config", dunstrc.path])
        try waitFor("dunst", timeout: 10, alive: dunst) { self.busNameHasOwner("org.freedesktop.Notifications") }
    }

    /// Stops dunst, as when a user's notification daemon crashes.
    public func stopNotificationServer() {
        processes.stop("dunst")
        _ = try? waitFor("dunst exit", timeout: 5, alive: nil) { !self.busNameHasOwner("org.freedesktop.Notifications") }
    }

    public func exportToProcess() {
        setenv("DISPLAY", display, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", busAddress, 1)
    }

    /// Runs a command with the desktop's environment and returns its standard output.
    @discardableResult
    public func run(_ program: String, _ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.which(program))
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    public func busNameHasOwner(_ name: String) -> Bool {
        let reply = (try? run("dbus-send", ["--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus",
                                            "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                            "string:\(name)"])) ?? ""
        return reply.contains("boolean true")
    }

    public func stop() {
        processes.stopAll()
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - Processes

    @discardableResult
    private func launch(_ program: String, _ arguments: [String], stdout: Pipe? = nil) throws -> Process {
        try processes.launch(program, arguments, environment: environment, name: program, stdout: stdout)
    }

    private func waitFor(_ what: String, timeout: TimeInterval, alive: Process?, _ ready: () -> Bool) throws {
        try Self.waitFor(what, timeout: timeout, alive: alive, ready)
    }

    /// Polls `ready` every 20 ms; `what` did not start when `alive` exits or `timeout` passes first.
    static func waitFor(_ what: String, timeout: TimeInterval, alive: Process?, _ ready: () -> Bool) throws {
        var exited = false
        let seen = Wait.poll(timeout: timeout) {
            if ready() { return true }
            exited = alive.map { !$0.isRunning } ?? false
            return exited
        }
        if exited, let alive { throw Failure.didNotStart(what, "it exited with \(alive.terminationStatus)") }
        if !seen { throw Failure.didNotStart(what, "not ready after \(timeout) s") }
    }

    private func writeOpenboxConfig() throws -> String {
        // Focus new windows so a test's window is active when mapped, like a user's desktop.
        let url = root.appendingPathComponent("openbox-rc.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <openbox_config xmlns="http://openbox.org/3.4/rc">
          <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
          <desktops><number>1</number></desktops>
        </openbox_config>
        """.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    // MARK: - Helpers

    public static func which(_ program: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/usr/games"] {
            let path = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure.missingProgram(program)
    }

    /// Starts Xvfb on a display number it picks itself (`-displayfd`: no race with another test
    /// process picking the same free number), ready for clients; its display name.
    static func launchXvfb(_ processes: HarnessProcesses, _ options: [String], environment: [String: String]?) throws -> String {
        let out = Pipe()
        let xvfb = try processes.launch("Xvfb", options + ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                                        environment: environment, name: "Xvfb", stdout: out)
        var printed = Data()
        var entry = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        try waitFor("Xvfb", timeout: 10, alive: xvfb) {
            if poll(&entry, 1, 20) > 0 { printed.append(out.fileHandleForReading.availableData) }
            return printed.contains(10)
        }
        return ":" + String(decoding: printed.prefix { $0 != 10 }, as: UTF8.self)
    }

    private static func hasWindowManager(_ name: String) -> Bool {
        guard let display = XOpenDisplay(name) else { return false }
        defer { XCloseDisplay(display) }
        let atom = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", 0)
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let root = XDefaultRootWindow(display)
        let status = XGetWindowProperty(display, root, atom, 0, 1, 0, Atom(XA_WINDOW), &type, &format,
                                        &count, &after, &data)
        defer { if let data { XFree(data) } }
        return status == Success && count == 1
    }

    /// The first line `pipe` brings within `timeout`: a bus daemon's address. What comes after is
    /// read and dropped from then on: the services the daemon starts inherit the pipe, and one
    /// writing to it must never block on a pipe nobody reads.
    static func readLine(from pipe: Pipe, timeout: TimeInterval, process: String) throws -> String {
        let handle = pipe.fileHandleForReading
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            if poll(&pfd, 1, 100) > 0 {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                if let newline = buffer.firstIndex(of: 10) {
                    Thread.detachNewThread { while !handle.availableData.isEmpty {} }
                    return String(decoding: buffer[..<newline], as: UTF8.self)
                }
            }
        }
        throw Failure.didNotStart(process, "printed no address")
    }
}
