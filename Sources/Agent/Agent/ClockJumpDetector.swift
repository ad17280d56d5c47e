import FoundationEssentials
import ScreenTimeCore

/// Notices the wall clock moving unlike the monotonic clock: a suspend (CLOCK_MONOTONIC, which
/// `MonotonicInstant` reads, stands still while the wall clock goes on) or a step of the
/// clock by hand or by NTP. CLOCK_BOOTTIME would not do: it runs through a suspend too.
/// Fed one reading of both clocks per loop turn.
struct ClockJumpDetector {
    struct Jump: Equatable {
        /// The last moment the user can have been seen, on the old wall clock: the previous
        /// reading plus the monotonic time since.
        var lastSeen: Date
        /// The new wall clock.
        var now: Date
        /// How far the wall clock moved beyond the monotonic one (negative: stepped back).
        var size: TimeInterval { now.timeIntervalSince(lastSeen) }
    }

    /// Drift below this is the loop's own jitter or an NTP slew, not a jump.
    let tolerance: TimeInterval
    private var last: ClockReading?

    init(tolerance: TimeInterval = 2) { self.tolerance = tolerance }

    /// Takes one reading of both clocks; returns the jump since the previous reading, if any.
    mutating func check(wall: Date, monotonic: MonotonicInstant) -> Jump? {
        defer { last = ClockReading(wall: wall, monotonic: monotonic) }
        guard let last else { return nil }
        let lastSeen = last.wall.addingTimeInterval(monotonic.seconds(since: last.monotonic))
        guard abs(wall.timeIntervalSince(lastSeen)) > tolerance else { return nil }
        return Jump(lastSeen: lastSeen, now: wall)
    }
}
