import FoundationEssentials
import ScreenTimeCore
import UsageStore

extension ModeState {
    /// Records a pause of `length` asked for at `now`, starting when the loosening rule lets it
    /// (at once in a Cheat Day or with `loosen = now`).
    public func pause(_ length: TimeInterval, settings: Settings, mode: Mode, now: Date) throws -> CheatDayBooking {
        guard PauseRule.bounds.contains(length) else {
            throw ModeStateError(kind: .invalidArgument, message: "A pause lasts from 1 minute to 12 hours, not \(DurationText.format(length)).")
        }
        let start = PauseRule.start(askedAt: now, settings: settings, inCheatDay: mode == .cheatDay, zone: zone)
        let id = try store.recordPause(start: start, end: start.addingTimeInterval(length), requestedAt: now)
        var booking = CheatDayBooking(id: "pause-\(id)", start: start, bookedAt: now)
        booking.pause = length
        return booking
    }

    /// Ends the pause running, and drops those to come: a tightening, at once.
    public func endPause(now: Date) throws {
        guard try store.endPauses(at: now) > 0 else { throw ModeStateError(kind: .notFound, message: "No pause is running or waiting.") }
    }
}
