import Glibc
import FoundationEssentials
import ScreenTimeCore

/// A short-lived helper process (`screentime calendar expand`) run with posix_spawn, its standard
/// output read from a pipe until it exits or a deadline passes (then it is killed).
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Result {
        var status: Int32
        var output: [UInt8]
    }

    /// Runs `executable` with `arguments`; stdin is /dev/null, stderr is the agent's own (its log).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval, outputLimit: Int = 16 << 20) throws(Failure) -> Result {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw failure("cannot make a pipe for \(executable)") }
        // Neither end leaks into other children; the child's stdout is a dup2 copy, which stays open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        defer { close(ends[0]) }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                stop(pid)
                throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) took longer than \(DurationText.spoken(timeout)) and was stopped")
            }
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { stop(pid); throw failure("poll on the pipe of \(executable)") }
            if ready <= 0 { continue }
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[..<count]
                if output.count > outputLimit { stop(pid); throw Failure(description: "\(executable) wrote more than \(outputLimit) bytes") }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                break
            }
        }
        return Result(status: wait(pid), output: output)
    }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        _ = wait(pid)
    }

    /// The exit status, or 128 + the signal that ended it.
    private static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
