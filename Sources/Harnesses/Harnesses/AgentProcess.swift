import Foundation
import SessionBus

/// The built `screentime` binary, run as a user would: `screentime agent` in the background on
/// the harness's desktop, with its own config and data folders.
public final class AgentProcess {
    public let process = Process()
    public let home: URL
    public let environment: [String: String]
    public let logPath: URL

    /// `screentime` from `$SCREENTIME_BIN_DIR` (the benchmark's release build), else
    /// `.build/<config>/screentime` beside the test bundle.
    public static var binary: URL {
        let directory = ProcessInfo.processInfo.environment["SCREENTIME_BIN_DIR"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return directory.appendingPathComponent("screentime")
    }

    /// A fresh home for one test: `config` is written as the user's config file. Unless it says
    /// otherwise, the time-of-day modes are off, so a test behaves the same at any hour. Disables
    /// ask for notifications, not cards (`SCREENTIME_CARD=off`), unless `cards`: the tests of the
    /// notifications follow them in the notification server.
    public static func freshEnvironment(on desk: AgentDesktop, config: String?, cards: Bool = false,
                                        flushSeconds: Int? = 2) throws -> [String: String] {
        let home = desk.root.appendingPathComponent("agent-\(UUID().uuidString.prefix(8))")
        var environment = desk.environment
        if !cards { environment["SCREENTIME_CARD"] = "off" }
        // Tests read the store behind the agent: written every 2 s (nil: the user's 10).
        if let flushSeconds { environment["SCREENTIME_FLUSH_SECONDS"] = String(flushSeconds) }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        // The machine's real desktop entries, as a user's session has them, after the test's own.
        environment["XDG_DATA_DIRS"] = [home.appendingPathComponent("share").path, "/usr/local/share", "/usr/share"]
            .joined(separator: ":")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/screentime"), withIntermediateDirectories: true)
        if var config {
            if !config.contains("[modes]") { config += "\n[modes]\nautomatic = off\n" }
            try config.write(to: home.appendingPathComponent(".config/screentime/config"), atomically: true, encoding: .utf8)
        }
        return environment
    }

    /// The test's own desktop-entry folder in `environment` (first in its `XDG_DATA_DIRS`), made.
    public static func applicationsFolder(_ environment: [String: String]) throws -> URL {
        let share = environment["XDG_DATA_DIRS"]?.split(separator: ":").first.map(String.init) ?? ""
        let folder = URL(fileURLWithPath: share).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Starts the agent and waits until it owns its bus name (on the desk's bus, or as `isReady`
    /// says). `agentOnly` is added to the agent's environment and not the CLI's (a preloaded
    /// library such as libfaketime); the agent is then started as `screentime-agent` itself, which
    /// takes no arguments: a Swift program under libfaketime sees none.
    public init(environment: [String: String], desk: AgentDesktop, agentOnly: [String: String] = [:],
                isReady: (() -> Bool)? = nil) throws {
        self.environment = environment
        home = URL(fileURLWithPath: environment["HOME"]!)
        logPath = home.appendingPathComponent("agent.log")
        FileManager.default.createFile(atPath: logPath.path, contents: nil)
        if agentOnly.isEmpty {
            process.executableURL = Self.binary
            process.arguments = ["agent"]
        } else {
            process.executableURL = Self.binary.deletingLastPathComponent().appendingPathComponent("screentime-agent")
        }
        process.environment = environment.merging(agentOnly) { $1 }
        process.standardError = try FileHandle(forWritingTo: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var ready = false
        Wait.poll(timeout: 10) {
            ready = isReady?() ?? desk.busNameHasOwner(AgentInterface.busName)
            return ready || !process.isRunning
        }
        guard ready else { throw DesktopHarness.Failure.didNotStart("screentime agent", "log: \(log)") }
    }

    public var log: String { (try? String(contentsOf: logPath, encoding: .utf8)) ?? "" }

    public var configPath: URL { home.appendingPathComponent(".config/screentime/config") }
    public var databasePath: String { home.appendingPathComponent(".local/share/screentime/screentime.db").path }

    /// Sends a signal and waits (bounded) for the exit; returns the exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 5) -> Int32 {
        HarnessProcesses.stop(process, signal: signal, timeout: timeout)
    }

    /// Runs `screentime ARGS` with this agent's environment: (status, stdout, stderr).
    public func cli(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try Self.run(arguments, environment: environment)
    }

    public static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let cli = Process()
        cli.executableURL = binary
        cli.arguments = arguments
        cli.environment = environment
        return try cli.finishedOutput()
    }

    deinit { stop() }
}

/// Polls `condition` until it holds or `timeout` passes; whether it held (`Wait.until` when the
/// test should fail naming what it waited for).
public func eventually(_ timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    try Wait.poll(timeout: timeout, condition)
}
