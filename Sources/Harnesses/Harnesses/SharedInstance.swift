import Foundation

/// A desktop that a test process starts once and shares among its tests; `stop()` ends
/// everything it started.
public protocol SharedHarness: AnyObject {
    func stop()
}

/// The one instance of a harness in this test process: started on first use, its start's failure
/// kept (every later test fails with it at once instead of starting again), stopped at exit.
// Unchecked: `started` is read and written only under `lock`.
public final class SharedInstance<Harness: SharedHarness>: @unchecked Sendable {
    private let lock = NSLock()
    private var started: Result<Harness, Error>?
    private let start: () throws -> Harness

    public init(_ start: @escaping () throws -> Harness) { self.start = start }

    public func get() throws -> Harness {
        lock.lock()
        defer { lock.unlock() }
        if started == nil {
            started = Result(catching: start)
            if case .success(let harness) = started { StopAtExit.add(harness) }
        }
        return try started!.get()
    }
}

/// The harnesses this process started, stopped when it exits, the last started first.
private enum StopAtExit {
    private static let lock = NSLock()
    // Guarded by `lock`; atexit takes no context, so the list is process-wide.
    nonisolated(unsafe) private static var harnesses: [any SharedHarness] = []

    static func add(_ harness: any SharedHarness) {
        lock.lock()
        defer { lock.unlock() }
        if harnesses.isEmpty { atexit { StopAtExit.stopAll() } }
        harnesses.append(harness)
    }

    private static func stopAll() {
        lock.lock()
        let started = harnesses
        harnesses = []
        lock.unlock()
        for harness in started.reversed() { harness.stop() }
    }
}
