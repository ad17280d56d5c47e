import Glibc
import SystemErrors

/// What went wrong on a Unix stream socket, with the path it concerned.
public enum UnixSocketError: Error, Equatable, CustomStringConvertible {
    case cannotConnect(path: String, errno: Int32)
    /// The peer closed the connection (the compositor exited).
    case closed(path: String)
    case failed(operation: String, path: String, errno: Int32)
    /// No answer within the time a connect-time round trip may take.
    case timedOut(path: String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let code): return "cannot connect to \(path): \(Errno(code))"
        case .closed(let path): return "\(path) closed the connection"
        case .failed(let operation, let path, let code): return "\(operation) on \(path): \(Errno(code))"
        case .timedOut(let path): return "\(path) did not answer in time"
        }
    }
}

/// A connected, non-blocking Unix stream socket (a compositor's IPC socket). The only file of
/// the target that calls the C library.
public final class UnixSocket {
    public let path: String
    /// -1 once closed.
    public private(set) var descriptor: Int32

    /// Connects to `path` (a listening socket accepts at once) and makes the socket non-blocking.
    public init(path: String) throws {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw UnixSocketError.cannotConnect(path: path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError.cannotConnect(path: path, errno: errno) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw UnixSocketError.cannotConnect(path: path, errno: code)
        }
        descriptor = fd
    }

    deinit { close() }

    /// Appends what the socket holds now to `buffer`, without blocking. False once the peer has
    /// closed and everything it sent was read.
    public func readAvailable(into buffer: inout [UInt8]) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count: Int
            do { count = try retryingInterrupts { read(descriptor, &chunk, chunk.count) } } catch {
                if error == .wouldBlock { return true }
                throw UnixSocketError.failed(operation: "read", path: path, errno: error.code)
            }
            if count == 0 { return false }
            buffer += chunk[0..<count]
        }
    }

    /// Writes as much of `bytes` as the socket takes now; how many it took.
    public func writeAvailable(_ bytes: ArraySlice<UInt8>) throws -> Int {
        var written = 0
        while written < bytes.count {
            do {
                written += try retryingInterrupts {
                    bytes.withUnsafeBytes { raw in send(descriptor, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                switch error.code {
                case EAGAIN: return written
                case EPIPE, ECONNRESET: throw UnixSocketError.closed(path: path)
                default: throw UnixSocketError.failed(operation: "write", path: path, errno: error.code)
                }
            }
        }
        return written
    }

    /// Waits until the socket is readable (or writable too, when `writing`), at most `timeout`:
    /// for the round trips a provider may block on while it connects.
    public func wait(for timeout: Duration, writing: Bool = false) throws {
        let (seconds, attoseconds) = timeout.components
        // Bounded both ways: a negative timeout would make poll wait for ever.
        let milliseconds = Int32(clamping: max(0, min(seconds, 1_000_000) * 1000 + attoseconds / 1_000_000_000_000_000))
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)
        let ready: Int32
        do { ready = try retryingInterrupts { poll(&entry, 1, milliseconds) } } catch {
            throw UnixSocketError.failed(operation: "poll", path: path, errno: error.code)
        }
        if ready == 0 { throw UnixSocketError.timedOut(path: path) }
    }

    /// Safe to call twice.
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }
}
