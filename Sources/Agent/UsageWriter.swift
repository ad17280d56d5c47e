import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// Foreground intervals on their way to the store, written together in one transaction at most
/// every `flushInterval` seconds rather than at every focus switch. What a SIGKILL can lose is
/// what happened since the last flush: at most `flushInterval` seconds.
final class UsageWriter {
    private struct Interval {
        var row: IntervalID?
        var app: AppID
        var title: String
        var mode: String
        var start: Date
        var end: Date?
    }

    private let store: UsageDatabase
    let flushInterval: TimeInterval
    /// Ended intervals not written yet, and the running one.
    private var ended: [Interval] = []
    private var running: Interval?
    private var lastFlush: Date

    init(store: UsageDatabase, flushInterval: TimeInterval, now: Date) {
        self.store = store
        self.flushInterval = flushInterval
        lastFlush = now
    }

    /// When the next write is due; nil while there is nothing to write.
    var nextFlush: Date? {
        running == nil && ended.isEmpty ? nil : lastFlush.addingTimeInterval(flushInterval)
    }

    func begin(app: AppID, title: String, mode: String, at start: Date) {
        // Nothing was waiting: the first write is due a flush interval after this start.
        if running == nil && ended.isEmpty { lastFlush = start }
        if running != nil { end(at: start) }
        running = Interval(row: nil, app: app, title: title, mode: mode, start: start, end: nil)
    }

    func end(at end: Date) {
        guard var interval = running else { return }
        interval.end = end
        ended.append(interval)
        running = nil
    }

    /// The wall clock jumped: the next write is due a flush interval from the new clock (a step
    /// back must not put it off by the size of the step).
    func clockJumped(to now: Date) { lastFlush = now }

    /// Writes everything so far; the running interval up to `now`.
    func flush(now: Date) throws {
        defer { lastFlush = now }
        guard running != nil || !ended.isEmpty else { return }
        try store.transaction {
            for interval in ended { _ = try write(interval, to: interval.end ?? now) }
            ended = []
            if let interval = running { running?.row = try write(interval, to: now) }
        }
    }

    private func write(_ interval: Interval, to end: Date) throws -> IntervalID {
        let row = try interval.row ?? store.beginInterval(app: interval.app, title: interval.title, mode: interval.mode, at: interval.start)
        try store.extendInterval(row, to: end)
        return row
    }
}
