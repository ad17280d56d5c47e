import Glibc

/// An errno a system call left, with the system's words for it: every target turns a failed call
/// into one of these here, rather than reading `errno` and `strerror` itself.
public struct Errno: Error, Equatable, CustomStringConvertible, Sendable {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// What the call that just failed left in this thread's `errno`.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(code)) }

    public static let interrupted = Errno(EINTR)
    /// EAGAIN, which Linux also names EWOULDBLOCK: a non-blocking descriptor has nothing now.
    public static let wouldBlock = Errno(EAGAIN)
}

/// Runs a system call again while a signal interrupts it (EINTR); returns its result, or throws
/// the errno it left when the result is below 0.
@discardableResult
public func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let failure = Errno.current
        if failure != .interrupted { throw failure }
    }
}
