import Logging
import FoundationEssentials
import ScreenTimeCore

extension AgentRunner {
    /// Reads both clocks once per turn. On a jump (a suspend, the clock stepped), the running
    /// interval ends at the last moment the user was seen, and every deadline the agent keeps in
    /// wall-clock time is taken again from the new clock: a step back must not hold a flush, a
    /// reconnect, an idle reading or a fade for as long as the step.
    func followClockJumps(wall: Date, monotonic: MonotonicInstant) {
        guard let jump = clockJumps.check(wall: wall, monotonic: monotonic) else { return }
        let now = jump.now
        Log.info("the clock jumped by \(Int(jump.size.rounded())) s; nothing of the jump is counted")
        apply(engine.handle(.clockJumped(lastSeen: jump.lastSeen), at: now))
        usage.clockJumped(to: now)
        if nextReconnect != nil { nextReconnect = now }
        if nextFilterStep != nil { apply(displayFilter: desiredFilter) }
        do { try desktop?.idle.clockJumped() } catch {
            desktopLost(error, at: now)
        }
        if let refreshed = calendars.lastRefresh, refreshed > now {
            calendars.refresh(paths: engine.settings.modes.calendarPaths, now: now)
        }
        resolveMode(now: now)
    }
}
