import Glibc

/// The write end of the self-pipe; a global because a C signal handler cannot capture.
private var signalPipeWriteEnd: Int32 = -1

/// SIGTERM, SIGINT and SIGHUP as a descriptor for the poll loop (the self-pipe trick), so the
/// agent leaves through its one exit path and restores the screen.
final class SignalWatch {
    let fileDescriptor: Int32
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        signalPipeWriteEnd = ends[1]
        for number in Self.signals {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
    }

    /// The signal received, if any.
    func take() -> Int32? {
        var byte: UInt8 = 0
        return read(fileDescriptor, &byte, 1) == 1 ? Int32(byte) : nil
    }

    deinit {
        for number in Self.signals { signal(number, SIG_DFL) }
        close(fileDescriptor)
        close(signalPipeWriteEnd)
    }
}
