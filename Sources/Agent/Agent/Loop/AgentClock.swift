import FoundationEssentials

/// Where the agent's time comes from: the system's clocks, or a test's virtual clock. Only the
/// loop reads it, once per turn, and hands the instant down.
public protocol AgentClock {
    func read() -> (wall: Date, monotonic: SuspendingClock.Instant)
}

/// The system's clocks: the one place the agent reads them.
public struct SystemClock: AgentClock {
    public init() {}
    public func read() -> (wall: Date, monotonic: SuspendingClock.Instant) { (Date(), .now) }
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
