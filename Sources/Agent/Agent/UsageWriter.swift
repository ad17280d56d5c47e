import Logging
import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// Foreground intervals (and the bypasses, limits hit and mode changes that go with them) on their
/// way to the store, written together in one transaction at most every `flushInterval` seconds
/// rather than at every focus switch. What a SIGKILL can lose is
/// what happened since the last flush: at most `flushInterval` seconds.
///
/// A write that fails (a full disk, a read-only file) loses nothing: the pending intervals stay
/// here and the next flush tries again, and `problem` says why until a write succeeds. Row ids
/// are taken only from a committed transaction, never from one that rolled back.
final class UsageWriter {
    private struct Interval {
        var row: IntervalID?
        var app: AppID
        var title: String
        var mode: String
        var start: Date
        var end: Date?
    }

    /// A row of its own, beside the intervals.
    enum Record: Equatable {
        case bypass(app: AppID, mode: String, rule: BypassedRule, at: Date, granted: TimeInterval)
        case limitHit(app: AppID, at: Date, used: TimeInterval)
        case modeChange(mode: String, reason: String, at: Date)
        case heldNotification(app: String, at: Date)
    }

    /// Why saving fails, and since when; nil while writes succeed.
    struct Problem: Equatable {
        var since: Date
        var reason: String
    }

    private let store: UsageDatabase
    let flushInterval: TimeInterval
    /// How often the write-ahead log is copied into the database file, so a deleted `-wal`
    /// loses at most that much of what was committed.
    let checkpointInterval: TimeInterval
    /// Ended intervals not written yet, and the running one.
    private var ended: [Interval] = []
    private var running: Interval?
    private var records: [Record] = []
    private var lastFlush: Date
    private var lastCheckpoint: Date
    private(set) var problem: Problem?

    init(store: UsageDatabase, flushInterval: TimeInterval, checkpointInterval: TimeInterval = 30, now: Date) {
        self.store = store
        self.flushInterval = flushInterval
        self.checkpointInterval = checkpointInterval
        lastFlush = now
        lastCheckpoint = now
        if let unsaved = store.unsavedReason { problem = Problem(since: now, reason: unsaved) }
    }

    /// When the next write is due; nil while there is nothing to write.
    var nextFlush: Date? {
        isIdle ? nil : lastFlush.addingTimeInterval(flushInterval)
    }

    private var isIdle: Bool { running == nil && ended.isEmpty && records.isEmpty }

    func begin(app: AppID, title: String, mode: String, at start: Date) {
        // Nothing was waiting: the first write is due a flush interval after this start.
        if isIdle { lastFlush = start }
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

    /// Keeps `record` and makes a flush due at once: records are rare, and readers (reports, the
    /// CLI) expect them without waiting for the next flush.
    func record(_ record: Record, at now: Date) {
        records.append(record)
        lastFlush = min(lastFlush, now.addingTimeInterval(-flushInterval))
    }

    /// Writes everything so far; the running interval up to `now`. On failure everything stays
    /// pending for the next flush, and the error is thrown and kept in `problem`.
    func flush(now: Date) throws {
        defer { lastFlush = now }
        guard !isIdle else { return }
        var runningRow: IntervalID?
        do {
            try store.transaction {
                for record in records { try write(record) }
                // Those already begun in the store (written while running) are extended; the
                // rest, most of them, written whole together.
                var whole: [UsageInterval] = []
                for interval in ended {
                    if interval.row == nil {
                        whole.append(.init(app: interval.app, title: interval.title, mode: interval.mode,
                                           start: interval.start, end: interval.end ?? now))
                    } else {
                        _ = try write(interval, to: interval.end ?? now)
                    }
                }
                try store.addIntervals(whole)
                if let interval = running { runningRow = try write(interval, to: now) }
            }
        } catch {
            if problem == nil { problem = Problem(since: now, reason: "\(error)") } else { problem?.reason = "\(error)" }
            throw error
        }
        records = []
        ended = []
        running?.row = runningRow
        // A stand-in store in memory takes every write and keeps none.
        if store.unsavedReason == nil, let problem {
            Log.info("usage is saved again (saving failed from \(problem.since): \(problem.reason))")
            self.problem = nil
        }
        maintainJournal(now: now)
    }

    /// Writes what is pending and copies the log into the database file, at exit.
    func close(now: Date) throws {
        try flush(now: now)
        try store.checkpoint(truncate: true)
    }

    /// Copies the log into the database file now and then, and at once when the `-wal` file was
    /// deleted (the store then starts a new one), so what was committed survives.
    private func maintainJournal(now: Date) {
        do {
            if try store.recoverVanishedJournal() {
                Log.warning("\(store.path)-wal was deleted; its committed writes were kept and a new one started")
                lastCheckpoint = now
            } else if now.timeIntervalSince(lastCheckpoint) >= checkpointInterval || now < lastCheckpoint {
                try store.checkpoint(truncate: false)
                lastCheckpoint = now
            }
        } catch {
            Log.warning("cannot checkpoint the usage database: \(error)")
        }
    }

    private func write(_ record: Record) throws {
        switch record {
        case .bypass(let app, let mode, let rule, let at, let granted): try store.recordBypass(app: app, mode: mode, rule: rule, at: at, granted: granted)
        case .limitHit(let app, let at, let used): try store.recordLimitHit(app: app, at: at, used: used)
        case .modeChange(let mode, let reason, let at): try store.recordModeChange(mode: mode, reason: reason, at: at)
        case .heldNotification(let app, let at): try store.recordHeldNotification(app: app, at: at)
        }
    }

    private func write(_ interval: Interval, to end: Date) throws -> IntervalID {
        guard let row = interval.row else {
            return try store.addInterval(app: interval.app, title: interval.title, mode: interval.mode, from: interval.start, to: end)
        }
        try store.extendInterval(row, to: end)
        return row
    }
}
