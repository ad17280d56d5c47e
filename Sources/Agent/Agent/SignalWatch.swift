import Glibc
import SystemErrors

/// The write end of the self-pipe; a global because a C signal handler cannot capture. Written
/// once, before any handler is installed, and only read (by the handler) afterwards.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGTERM, SIGINT and SIGHUP as a descriptor for the poll loop (the self-pipe trick), so the
/// agent leaves through its one exit path and restores the screen. Setting it up either works or
/// is an error at start: an agent that SIGTERM could not stop would skip the screen's restore.
final class SignalWatch {
    let fileDescriptor: Int32
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    struct SetupFailed: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SetupFailed(description: "cannot make the signal pipe: \(Errno.current)") }
        for end in ends where fcntl(end, F_SETFL, O_NONBLOCK) != 0 || fcntl(end, F_SETFD, FD_CLOEXEC) != 0 {
            let reason = Errno.current
            close(ends[0])
            close(ends[1])
            throw SetupFailed(description: "cannot set up the signal pipe: \(reason)")
        }
        fileDescriptor = ends[0]
        signalPipeWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { received in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: received)
            _ = write(signalPipeWriteEnd, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in Self.signals where sigaction(number, &action, nil) != 0 {
            let reason = Errno.current
            Self.restoreDefaults()
            close(ends[0])
            close(ends[1])
            throw SetupFailed(description: "cannot handle signal \(number): \(reason)")
        }
    }

    /// The signal received, if any.
    func take() -> Int32? {
        var byte: UInt8 = 0
        return read(fileDescriptor, &byte, 1) == 1 ? Int32(byte) : nil
    }

    private static func restoreDefaults() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        for number in signals { sigaction(number, &action, nil) }
    }

    deinit {
        Self.restoreDefaults()
        close(fileDescriptor)
        close(signalPipeWriteEnd)
    }
}
