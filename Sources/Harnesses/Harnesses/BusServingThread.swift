import Foundation
import SessionBus
import Synchronization

/// Runs a connection's dispatch loop on its own thread, so a test can make blocking calls to
/// objects it exports. The connection is created, used and closed only on that thread (it is not
/// Sendable); what the test's thread and the serving thread share is `progress`, in a Mutex.
public final class BusServingThread: Sendable {
    private struct Progress {
        var started = false
        var stopRequested = false
        var finished = false
        var startError: Error?
        var uniqueName = ""
    }

    private let progress = Mutex(Progress())

    /// The serving connection's unique bus name.
    public var uniqueName: String { progress.withLock { $0.uniqueName } }

    /// `setUp` runs on the serving thread with its fresh connection (export objects there); its
    /// error is thrown here. Returns once the thread serves.
    public init(address: String, setUp: @escaping @Sendable (BusConnection) throws -> Void) throws {
        Thread.detachNewThread { [self] in serve(address: address, setUp: setUp) }
        try waitUntil { progress in
            guard progress.started else { return false }
            if let error = progress.startError { throw error }
            return true
        }
    }

    private func serve(address: String, setUp: (BusConnection) throws -> Void) {
        defer { progress.withLock { $0.finished = true } }
        do {
            let connection = try BusConnection(address: address)
            try setUp(connection)
            let name = connection.uniqueName
            progress.withLock { $0.started = true; $0.uniqueName = name }
            while !progress.withLock({ $0.stopRequested }) {
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 20)
                try connection.dispatchPending()
                connection.flush()
            }
            connection.close()
        } catch {
            progress.withLock { if !$0.started { $0.startError = error; $0.started = true } }
        }
    }

    /// Ends the dispatch loop (the connection closes, giving up its names) and waits for the thread to end.
    public func stop() {
        progress.withLock { $0.stopRequested = true }
        try? waitUntil { $0.finished }
    }

    /// Polls `condition` every millisecond: the serving thread changes `progress` seldom, and a
    /// condition variable beside the Mutex would be a second lock to keep in step.
    /// No deadline: `stop()` returns only once the thread has ended.
    private func waitUntil(_ condition: (Progress) throws -> Bool) throws {
        while try !Wait.poll(timeout: 3600, every: 0.001, { try progress.withLock { try condition($0) } }) {}
    }
}
