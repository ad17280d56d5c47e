import Foundation
import Harnesses
import SessionBus

/// A GNOME Shell of a test's own, headless, with the project's extension (built by build.sh, in
/// test mode) under `language` (GNU gettext's LANGUAGE) and Clutter's text direction: the shared
/// `GnomeShellHarness` runs the suite's English left-to-right session, which the other tests read.
/// Stopped when released.
final class LocalizedGnomeShell: AgentDesktop {
    let root: URL
    private(set) var environment: [String: String]
    private(set) var busAddress = ""
    private var processes: [Process] = []
    private var bus: BusConnection?
    private let systemBus: PrivateBus

    init(language: String?, textDirection: String = "ltr") throws {
        let name = "screentime-gnome-\(language ?? "en")-\(textDirection)-\(getpid())"
        root = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: root)
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "LANGUAGE"] { environment[key] = nil }
        for (key, sub) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "home/.config"),
                           ("XDG_DATA_HOME", "home/.local/share"), ("XDG_CACHE_HOME", "home/.cache")] {
            let folder = root.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[key] = folder.path
        }
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        environment["XDG_SESSION_TYPE"] = "wayland"
        systemBus = try PrivateBus(directory: root.appendingPathComponent("system-bus"))
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        // The session's standard config, so dconf is activated for the settings below.
        let socket = root.appendingPathComponent("session-bus").path
        busAddress = "unix:path=\(socket)"
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        self.environment = environment
        try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"])
        try waitUntil("the session bus") { FileManager.default.fileExists(atPath: socket) }
        bus = try BusConnection(address: busAddress)

        let extensionFolder = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!)
            .appendingPathComponent("gnome-shell/extensions/\(GnomeShellHarness.extensionUUID)")
        try run("/bin/sh", [GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/gnome-shell/build.sh").path, extensionFolder.path])
        FileManager.default.createFile(atPath: extensionFolder.appendingPathComponent("testing-unsafe-mode").path, contents: nil)
        for (schema, key, value) in [("org.gnome.shell", "enabled-extensions", "['\(GnomeShellHarness.extensionUUID)']"),
                                     ("org.gnome.desktop.interface", "enable-animations", "false")] {
            try run("gsettings", ["set", schema, key, value])
        }
        var shellEnvironment = environment
        shellEnvironment["LANGUAGE"] = language
        shellEnvironment["CLUTTER_TEXT_DIRECTION"] = textDirection
        let log = root.appendingPathComponent("gnome-shell.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let shell = try launch("gnome-shell", ["--headless", "--wayland", "--no-x11", "--wayland-display=\(name)", "--virtual-monitor", "1280x800"],
                               environment: shellEnvironment, stderr: try FileHandle(forWritingTo: log))
        try waitUntil("GNOME Shell with the extension (log: \(log.path))", timeout: 60, alive: shell) {
            self.busNameHasOwner(GnomeShellHarness.shellBusName)
        }
    }

    /// The indicator as its test-only Probe shows it (GnomeShellHarness.indicator's fields).
    func indicator() throws -> [String: Any] {
        let reply = try bus!.call(destination: GnomeShellHarness.shellBusName, path: GnomeShellHarness.shellPath,
                                  interface: "org.screentime.Shell.IndicatorTesting", method: "Probe")
        return (try JSONSerialization.jsonObject(with: Data((reply.first?.stringValue ?? "").utf8)) as? [String: Any]) ?? [:]
    }

    func busNameHasOwner(_ name: String) -> Bool {
        (try? bus?.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        method: "NameHasOwner", arguments: [.string(name)]).first?.boolValue) == true
    }

    @discardableResult
    private func launch(_ program: String, _ arguments: [String], environment: [String: String]? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = try HarnessProcesses.process(program, arguments, environment: environment ?? self.environment, stderr: stderr)
        try process.run()
        processes.append(process)
        return process
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        let process = try HarnessProcesses.process(program, arguments, environment: environment)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DesktopHarness.Failure.didNotStart("\(program) \(arguments.joined(separator: " "))", "it exited with \(process.terminationStatus)")
        }
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 10, alive: Process? = nil, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline, alive?.isRunning ?? true else { throw DesktopHarness.Failure.didNotStart(what, "not ready within \(timeout) s") }
            usleep(100_000)
        }
    }

    deinit {
        bus?.close()
        // The shell first, then its buses.
        for process in processes.reversed() { _ = HarnessProcesses.stop(process) }
        systemBus.kill()
        try? FileManager.default.removeItem(at: root)
    }
}
