import Glibc
import FoundationEssentials

/// Where the agent's time comes from: the system's clocks, or a test's virtual clock. Only the
/// loop reads it, once per turn, and hands the instant down.
public protocol AgentClock {
    func read() -> ClockReading
}

/// One reading of both clocks: the wall clock the user's day is counted on, and the monotonic one
/// that tells a suspend or a step of the wall clock from time passing.
public struct ClockReading {
    public var wall: Date
    public var monotonic: MonotonicInstant

    public init(wall: Date, monotonic: MonotonicInstant) {
        self.wall = wall
        self.monotonic = monotonic
    }
}

/// A reading of CLOCK_MONOTONIC, which stands still while the machine sleeps. Plain nanoseconds:
/// the standard library's clocks go through generic, resilient code at every turn.
public struct MonotonicInstant {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The system's monotonic clock now.
    public static func now() -> MonotonicInstant {
        var reading = timespec()
        clock_gettime(CLOCK_MONOTONIC, &reading)
        return MonotonicInstant(nanoseconds: Int64(reading.tv_sec) * 1_000_000_000 + Int64(reading.tv_nsec))
    }

    public func advanced(by seconds: TimeInterval) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds + Int64((seconds * 1e9).rounded()))
    }

    /// Seconds from `earlier` to this instant.
    public func seconds(since earlier: MonotonicInstant) -> TimeInterval {
        TimeInterval(nanoseconds - earlier.nanoseconds) / 1e9
    }
}

/// The system's clocks: the one place the agent reads them.
public struct SystemClock: AgentClock {
    public init() {}
    public func read() -> ClockReading {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return ClockReading(wall: Date(timeIntervalSince1970: TimeInterval(wall.tv_sec) + TimeInterval(wall.tv_nsec) / 1e9),
                            monotonic: .now())
    }
}

/// The instant of the loop's current turn, shared with the parts that date what a callback brings
/// (a C library's, a bus message's) without a clock of their own.
final class TurnInstant {
    private(set) var now: Date
    init(_ wall: Date) { now = Self.asStored(wall) }

    /// The instant the clock now reads.
    func move(to wall: Date) { now = Self.asStored(wall) }

    /// As the store keeps it (Unix seconds): an instant written now reads back as this very
    /// instant, so a switch or a break asked for now is not "just after now" when read again.
    private static func asStored(_ wall: Date) -> Date { Date(timeIntervalSince1970: wall.timeIntervalSince1970) }
}
