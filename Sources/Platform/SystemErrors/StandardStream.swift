// Glibc's `stdout` and `stderr` are mutable C globals, which Swift 6 lets no code read. The C
// library sets them before main and nothing here ever assigns them, so reading them is safe: this
// file alone imports Glibc as pre-concurrency code, and the rest of the project writes through it.
@preconcurrency import Glibc

/// Standard output or error through C's buffered streams, so that what `print` writes and what
/// is written here stay in order.
public enum StandardStream: Sendable {
    case output, error

    public func write(_ text: String) { fputs(text, file) }

    public func flush() { fflush(file) }

    private var file: UnsafeMutablePointer<FILE> {
        switch self {
        case .output: stdout
        case .error: stderr
        }
    }
}
