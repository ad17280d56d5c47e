import Foundation
import Synchronization

/// The processes a harness started, for every harness alike: each run with the harness's
/// environment (and, for sway's clients, as the unprivileged user a session's programs run as),
/// kept by name, stopped by name or all together, the last started first. A stop terminates the
/// process and kills it when it has not exited after 3 s.
public final class HarnessProcesses: Sendable {
    private let started = Mutex<[(name: String?, process: Process)]>([])

    public init() {}

    /// A process for `program` (a path, or a name found as `DesktopHarness.which` finds it), not
    /// yet started; output goes nowhere unless `stdout` or `stderr` is given.
    public static func process(_ program: String, _ arguments: [String], environment: [String: String]?,
                               asUser user: UInt32? = nil, stdout: Pipe? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = Process()
        let executable = program.hasPrefix("/") ? program : try DesktopHarness.which(program)
        if let user {
            process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("setpriv"))
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", executable] + arguments
            // In the user's own home, as a session's programs start: the suite's folder (a clone
            // under root's home, say) may be no place the user can enter, and foot then exits at once.
            if let home = environment?["HOME"] { process.currentDirectoryURL = URL(fileURLWithPath: home) }
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        return process
    }

    /// Starts `program` and keeps it, under `name` when given (a later start of the same name
    /// replaces it there).
    @discardableResult
    public func launch(_ program: String, _ arguments: [String], environment: [String: String]?, name: String? = nil,
                       asUser user: UInt32? = nil, stdout: Pipe? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = try Self.process(program, arguments, environment: environment, asUser: user, stdout: stdout, stderr: stderr)
        try process.run()
        started.withLock { started in
            if let name { started.removeAll { $0.name == name } }
            started.append((name, process))
        }
        return process
    }

    /// How every harness stops a process: `signal`, then SIGKILL when it has not exited within
    /// `timeout`; its exit status.
    @discardableResult
    public static func stop(_ process: Process, signal: Int32 = SIGTERM, timeout: TimeInterval = 3) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        if !waitForExit(process, timeout: timeout) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// Waits at most `timeout` for `process` to exit; whether it did.
    public static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        Wait.poll(timeout: timeout, every: 0.01) { !process.isRunning }
    }

    public subscript(name: String) -> Process? { started.withLock { $0.last { $0.name == name }?.process } }

    public func stop(_ name: String) {
        let process = started.withLock { started -> Process? in
            guard let index = started.lastIndex(where: { $0.name == name }) else { return nil }
            return started.remove(at: index).process
        }
        if let process { Self.stop(process) }
    }

    /// Stops every process still kept, the last started first.
    public func stopAll() {
        while let last = started.withLock({ $0.popLast() }) { Self.stop(last.process) }
    }
}
