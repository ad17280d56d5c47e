import Foundation
import Synchronization

/// A session `dbus-daemon` of a test's own, on a fixed socket, that the test can kill and start
/// again on the same address (the shared harness's bus must stay up for the other tests).
public final class PrivateBus: Sendable {
    public let socketPath: String
    /// As the daemon printed it, `guid=` included (as `dbus-launch` writes it for a session).
    public var address: String { current.withLock { $0.address } }
    /// The daemon running now, and the address it printed.
    private let current = Mutex<(process: Process?, address: String)>((nil, ""))

    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("bus").path
        let config = directory.appendingPathComponent("bus.conf")
        try DesktopHarness.busConfig(socketPath: socketPath).write(to: config, atomically: true, encoding: .utf8)
        configPath = config.path
        try start()
    }

    private let configPath: String

    /// Starts the daemon (again); its address keeps the socket path, with a new guid.
    public func start() throws {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try DesktopHarness.which("dbus-daemon"))
        daemon.arguments = ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--print-address=1"]
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        current.withLock { $0.process = daemon }
        let address = try DesktopHarness.readLine(from: out, timeout: 10, process: "dbus-daemon")
        current.withLock { $0.address = address }
    }

    /// Kills the daemon, as when a session bus crashes.
    public func kill() {
        guard let process = current.withLock({ $0.process }), process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        current.withLock { $0.process = nil }
    }

    /// Whether `name` has an owner on this bus (false while the daemon is down).
    public func hasOwner(_ name: String) -> Bool {
        guard current.withLock({ $0.process })?.isRunning == true else { return false }
        let query = Process()
        query.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        query.arguments = ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus.NameHasOwner", "string:\(name)"]
        let out = Pipe()
        query.standardOutput = out
        query.standardError = FileHandle.nullDevice
        guard (try? query.run()) != nil else { return false }
        let reply = out.fileHandleForReading.readDataToEndOfFile()
        query.waitUntilExit()
        return String(decoding: reply, as: UTF8.self).contains("boolean true")
    }

    deinit { kill() }
}
