import Logging
import FoundationEssentials
import ScreenTimeCore
import SessionBus

extension AgentRunner {
    /// Subscribes to logind on the system bus. Without one, says so once and carries on: a suspend
    /// is still noticed from the clock, a lock from the screen saver services.
    func watchLogind() {
        do {
            let watch = try LogindWatch(environment: options.environment) { [unowned self] event in
                switch event {
                case .sleeping(let asleep): sessionChanged { $0.asleep = asleep }
                case .locked(let locked): lockChanged { $0.locked = locked }
                }
            }
            logind = watch
            Log.info("logind: sleep" + (watch.sessionPath.map { " and the lock of \($0)" } ?? " (no XDG_SESSION_ID: no session lock)"))
        } catch {
            Log.warning("no logind on the system bus (\(error)); suspends are noticed from the clock, locks from the screen saver")
        }
    }

    /// The screen saver services' `ActiveChanged` and the media players, on a new session bus connection.
    func watchSessionBus(_ connection: BusConnection) {
        do {
            try ScreenSaverWatch.subscribe(connection) { [unowned self] active in
                lockChanged { $0.screenSaverActive = active }
            }
            media = try MediaPlayerWatch(connection: connection) { [unowned self] in focusedMediaChanged() }
        } catch {
            Log.warning("cannot watch the screen saver and media players (\(error))")
        }
    }

    /// The focus moved to the window `facts` describes (nil: none): the engine hears of the app,
    /// and whether it plays media.
    func focusMoved(to facts: WindowFacts?, at now: Date) {
        apply(engine.handle(.focus(focusedApp(facts)), at: now))
        if facts?.role == .normal && activity.isActive { weeklySummaryActivity(at: now) }
        focusedPID = facts?.pid
        focusedMediaChanged()
    }

    /// Media started or stopped playing, or the focus moved: present while the focused app plays.
    func focusedMediaChanged() {
        let playing = media?.isPlaying(pid: focusedPID) ?? false
        guard playing != activity.mediaPlaying else { return }
        sessionChanged { $0.mediaPlaying = playing }
    }

    func systemBusReadable() {
        guard let logind else { return }
        do { try logind.connection.dispatchPending() } catch {
            Log.warning("lost the system bus (\(error)); sleep and locks from logind are no longer seen")
            self.logind = nil
            sessionChanged { $0.asleep = false; $0.locked = false }
        }
    }

    /// The session's lock (logind's, a screen saver's) changed: its end is an unlock, which some
    /// modes greet with their card, told to the engine before the activity it brings.
    func lockChanged(_ change: (inout SessionActivity) -> Void) {
        var after = activity
        change(&after)
        if activity.isLocked && !after.isLocked { apply(engine.handle(.unlocked, at: now)) }
        sessionChanged(at: now, change)
    }

    /// One of the session's inputs changed at `date`: the engine hears whether the user counts as
    /// present (it ignores an answer that did not change). Asleep or locked, the running interval
    /// ends at `date`.
    func sessionChanged(at date: Date? = nil, _ change: (inout SessionActivity) -> Void) {
        let date = date ?? now
        let wasActive = activity.isActive
        change(&activity)
        apply(engine.handle(.activity(active: activity.isActive), at: date))
        if activity.isActive && !wasActive { weeklySummaryActivity(at: date) }
    }
}
