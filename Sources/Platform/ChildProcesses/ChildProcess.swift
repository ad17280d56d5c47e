import Glibc
import FoundationEssentials
import ScreenTimeCore
import SystemErrors

/// A short-lived helper process (`screentime calendar expand`) started with posix_spawn, whose
/// standard output the owner's poll loop collects as it arrives: poll `fileDescriptor` and call
/// `readAvailable()` when it is readable; the owner stops the child at `deadline`. Nothing here
/// waits for the child while it runs.
public final class ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `executable arguments…`, for messages.
    public let commandLine: String
    /// When the owner should give up on it (`stop()`).
    public let deadline: Date
    /// The read end of its standard output (non-blocking); -1 once the output has ended.
    public private(set) var fileDescriptor: Int32
    public private(set) var output: [UInt8] = []
    private let outputLimit: Int
    private var pid: pid_t?

    /// Starts `executable` with `arguments`; stdin is /dev/null, stderr is the agent's own (its log).
    public init(_ executable: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval,
         now: Date, outputLimit: Int = 16 << 20) throws(Failure) {
        commandLine = ([executable] + arguments).joined(separator: " ")
        deadline = now.addingTimeInterval(timeout)
        self.outputLimit = outputLimit
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Self.failure("cannot make a pipe for \(executable)") }
        // Neither end leaks into other children; the child's stdout is a dup2 copy, which stays open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw Failure(description: "cannot start \(executable): \(Errno(spawned))")
        }
        pid = child
        fileDescriptor = ends[0]
    }

    deinit { stop() }

    /// Takes in what the child wrote since the last call (at most `chunkLimit` bytes, so one call
    /// stays short). Returns the exit status once the output has ended, nil while it goes on.
    public func readAvailable(chunkLimit: Int = 1 << 20) throws(Failure) -> Int32? {
        guard fileDescriptor >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var taken = 0
        while taken < chunkLimit {
            let count = read(fileDescriptor, &buffer, buffer.count)
            if count > 0 {
                output += buffer[..<count]
                taken += count
                if output.count > outputLimit {
                    stop()
                    throw Failure(description: "\(commandLine) wrote more than \(outputLimit) bytes and was stopped")
                }
            } else if count == 0 {
                close(fileDescriptor)
                fileDescriptor = -1
                return reap()
            } else if Errno.current == .wouldBlock {
                return nil
            } else if Errno.current != .interrupted {
                let error = Self.failure("reading the output of \(commandLine)")
                stop()
                throw error
            }
        }
        return nil
    }

    /// Kills the child (if it still runs) and reaps it.
    public func stop() {
        if fileDescriptor >= 0 {
            close(fileDescriptor)
            fileDescriptor = -1
        }
        guard let pid else { return }
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// The exit status, or 128 + the signal that ended it. Called once the output has ended: the
    /// child ends its output by exiting, so this wait is the exit itself.
    private func reap() -> Int32 {
        guard let child = pid else { return -1 }
        pid = nil
        var status: Int32 = 0
        guard (try? retryingInterrupts({ waitpid(child, &status, 0) })) != nil else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(Errno.current)")
    }
}
