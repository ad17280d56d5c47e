import Foundation
import ScreenTimeCore

/// Runs a focus provider's part of the agent's loop in a test (input, output, deadlines) and
/// records what it tells.
public final class ProviderDriver {
    public typealias Provider = FocusProvider & DesktopConnection
    public let provider: Provider
    public private(set) var events: [FocusEvent] = []

    /// Takes the provider's focus events, and asks for the current focus as the agent does.
    public init(_ provider: Provider) throws {
        self.provider = provider
        provider.onFocus = { [unowned self] in events.append($0) }
        _ = try provider.currentFocus()
    }

    /// The last `.focused` told: nil when none was, .some(nil) for "no window".
    public var lastFocus: WindowFacts?? {
        for event in events.reversed() { if case .focused(let facts) = event { return .some(facts) } }
        return nil
    }

    /// Runs the loop until `condition` holds; a test failure after 5 s.
    public func pump(until condition: () throws -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(5)
        while try !condition() {
            guard Date() < deadline else { throw Failure.notWithin("5 s", events) }
            try turn()
        }
    }

    /// Runs the loop until the provider reports an error (its compositor went away), at most 5 s.
    public func errorWhenTheCompositorGoesAway() throws -> Error {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            do { try turn() } catch { return error }
        }
        throw Failure.notWithin("5 s of the compositor leaving: no error", events)
    }

    /// One turn: waits at most 20 ms (or until the provider's deadline) for input.
    private func turn() throws {
        let due = provider.nextDeadline(after: Date())
        let wait = due.map { Int32(max(0, min(20, $0.timeIntervalSinceNow * 1000))) } ?? 20
        var entry = pollfd(fd: provider.pollDescriptor, events: Int16(POLLIN) | (provider.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0)
        if provider.hasBufferedInput || poll(&entry, 1, wait) > 0 { try provider.handleReadable() }
        if let due, due <= Date() { try provider.handleDeadline(now: Date()) }
    }

    public enum Failure: Error, CustomStringConvertible {
        case notWithin(String, [FocusEvent])
        public var description: String {
            switch self {
            case .notWithin(let what, let events): return "not within \(what); events: \(events)"
            }
        }
    }
}
