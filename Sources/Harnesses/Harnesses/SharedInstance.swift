import Foundation
import Synchronization

/// A desktop that a test process starts once and shares among its tests; `stop()` ends
/// everything it started. Sendable, as the one instance is reached from a static property.
public protocol SharedHarness: AnyObject, Sendable {
    func stop()
}

/// The one instance of a harness in this test process: started on first use, its start's failure
/// kept (every later test fails with it at once instead of starting again), stopped at exit.
public final class SharedInstance<Harness: SharedHarness>: Sendable {
    /// Held while the harness starts, so a second caller waits for that start instead of making another.
    private let started = Mutex<Result<Harness, Error>?>(nil)
    private let start: @Sendable () throws -> Harness

    public init(_ start: @escaping @Sendable () throws -> Harness) { self.start = start }

    public func get() throws -> Harness {
        try started.withLock { started in
            if started == nil {
                started = Result(catching: start)
                if case .success(let harness) = started { StopAtExit.add(harness) }
            }
            return try started!.get()
        }
    }
}

/// The harnesses this process started, stopped when it exits, the last started first.
private enum StopAtExit {
    /// Process-wide: atexit takes no context.
    private static let harnesses = Mutex<[any SharedHarness]>([])

    static func add(_ harness: any SharedHarness) {
        harnesses.withLock { harnesses in
            if harnesses.isEmpty { atexit { StopAtExit.stopAll() } }
            harnesses.append(harness)
        }
    }

    private static func stopAll() {
        let started = harnesses.withLock { harnesses in
            defer { harnesses = [] }
            return harnesses
        }
        for harness in started.reversed() { harness.stop() }
    }
}
