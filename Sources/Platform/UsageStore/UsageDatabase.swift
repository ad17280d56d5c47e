import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// The usage store: foreground intervals, bypasses, limits hit and mode changes in one SQLite file.
///
/// The agent opens it read-write (`openForAgent`) and is its only writer. Its `UsageWriter` writes
/// what is pending at most every 2 s while counting, in one transaction, so an agent killed with
/// SIGKILL loses at most those 2 s. The file is in WAL mode, so the CLI can open
/// it read-only at the same time and sees every committed write without blocking the agent.
///
/// Ranges are half-open, `[from, to)`. Interval queries clip each interval to the range: one that
/// spans midnight counts only its part inside the day asked for.
///
/// Not thread-safe: use one instance from one thread (open another for another thread).
public final class UsageDatabase {
    public let path: String
    public let isReadOnly: Bool
    private var database: SQLiteDatabase
    /// Set for a stand-in in memory (see `openForAgent`): why the real file could not be opened.
    private var standInReason: String?
    /// The inode of the log this connection writes, to notice when the file at its path is another.
    private var journalIdentity: UInt64?
    /// Prepared statements by SQL, kept for the life of the connection: the agent's hot paths
    /// (`beginInterval`, `extendInterval`) then cost a bind and a step.
    private var statements: [String: Statement] = [:]
    /// The writer's page cache, in KiB: a day's writes and the start-up reads fit.
    private static let agentCacheKiB = 256

    /// Opens the store at `path`.
    ///
    /// Read-write (the agent): creates the file and its parent directories (mode 0700) when
    /// missing, turns on WAL, and brings the schema up to date.
    ///
    /// Read-only (the CLI): never creates anything. Throws `StoreError.missing` when there is no
    /// file yet, or the agent has not set it up yet; callers treat that as "no usage recorded".
    ///
    /// Throws `StoreError.corrupt` when the file is not a usable SQLite database, and
    /// `StoreError.unsupportedSchema` when a newer screentime wrote it.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        self.isReadOnly = readOnly
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        } else {
            try Self.makePrivateFile(path)
        }
        // The writer's log was deleted (its index is still there): read the database file alone,
        // everything up to the writer's last checkpoint, rather than fail on the missing log.
        let logLost = readOnly && !FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm")
        do {
            database = try Self.connect(path: path, readOnly: readOnly, ignoringLog: logLost)
        } catch let error as StoreError where readOnly && !logLost && error.isCannotOpen {
            // No shared index and no right to create one (a read-only folder): the file alone.
            database = try Self.connect(path: path, readOnly: true, ignoringLog: true)
        }
        journalIdentity = readOnly ? nil : fileNumber(atPath: path + "-wal")
    }

    private static func connect(path: String, readOnly: Bool, ignoringLog: Bool = false) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, readOnly: readOnly, immutable: ignoringLog)
        // Wait for the other process's write lock instead of failing at once.
        try database.exec("PRAGMA busy_timeout = 2000")
        if readOnly {
            try Schema.checkReadable(database)
        } else {
            // WAL lets readers run beside the writer; with it NORMAL sync is still crash-safe
            // for the process (only a power loss can drop the last commits).
            try database.exec("PRAGMA journal_mode = WAL")
            try database.exec("PRAGMA synchronous = NORMAL")
            try database.exec("PRAGMA foreign_keys = ON")
            // The agent runs all day and writes a little often: SQLite's default page cache (2 MB)
            // would fill with pages it wrote and never reads again, and stay resident.
            try database.exec("PRAGMA cache_size = -\(Self.agentCacheKiB)")
            try Schema.migrate(database)
            // Everything in the database file itself, not only in the log (readers can open it even
            // if the log is lost), and the log emptied, so it starts small.
            try database.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return database
    }

    /// Opens the agent's store, first moving a damaged or unreadable file aside: to
    /// `<path>.corrupt-<UTC time>` (its `-wal` beside it), kept for the user, and a fresh store
    /// is started. Returns the store and, when that happened, where the old file went.
    ///
    /// A store that cannot be opened for writing at all (a read-only folder, a full disk, a newer
    /// schema) never keeps the agent from running: it gets a stand-in in memory, whose
    /// `unsavedReason` says why nothing is saved.
    public static func openForAgent(path: String, now: Date) throws -> (store: UsageDatabase, movedAside: String?) {
        do {
            return (try openChecked(path: path), nil)
        } catch StoreError.corrupt(_, let damage) {
            let aside = path + ".corrupt-" + now.formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted))
            do {
                try FileManager.default.moveItem(atPath: path, toPath: aside)
                for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                    try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
                }
                return (try UsageDatabase(path: path), aside)
            } catch {
                let reason = unwritableReason(path) ?? "the usage database \(path) is damaged (\(damage)) and cannot be moved aside: \(error)"
                return (try UsageDatabase(standInFor: path, reason: reason), nil)
            }
        } catch {
            return (try UsageDatabase(standInFor: path, reason: unwritableReason(path) ?? "\(error)"), nil)
        }
    }

    /// An empty store in memory standing in for `path`, which cannot be written.
    private init(standInFor path: String, reason: String) throws {
        self.path = path
        isReadOnly = false
        database = try Self.connect(path: ":memory:", readOnly: false)
        standInReason = reason
        journalIdentity = nil
        try? copySaved(from: path)
    }

    /// Copies what the file at `path` holds into this stand-in, when it can be read and has this
    /// schema, so today's usage and the mode state carry on.
    private func copySaved(from path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let attach = try database.prepare("ATTACH DATABASE ?1 AS saved")
        // With its log if it can be read; else the database file alone (no shared index possible).
        let readable = ["mode=ro", "immutable=1"].contains { options in
            do {
                try attach.bind(.text(SQLiteDatabase.uri(path, options: options)))
                try attach.run()
                if try savedVersion() == Schema.currentVersion { return true }
            } catch {}
            try? database.exec("DETACH DATABASE saved")
            return false
        }
        guard readable else { return }
        defer { try? database.exec("DETACH DATABASE saved") }
        let tables = try database.prepare("SELECT name FROM saved.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var names: [String] = []
        while try tables.step() == .row { names.append(tables.text(at: 0)) }
        tables.reset()
        try transaction {
            for name in names { try database.exec("INSERT INTO main.\"\(name)\" SELECT * FROM saved.\"\(name)\"") }
        }
    }

    private func savedVersion() throws -> Int {
        let statement = try database.prepare("PRAGMA saved.user_version")
        defer { statement.reset() }
        return try statement.step() == .row ? Int(statement.int64(at: 0)) : 0
    }

    /// Opens `path` and checks it, closing it again before throwing `.corrupt` for a damaged file.
    private static func openChecked(path: String) throws -> UsageDatabase {
        let store = try UsageDatabase(path: path)
        if let damage = try store.integrityProblem() { throw StoreError.corrupt(path: path, message: damage) }
        return store
    }

    /// The first damage `PRAGMA quick_check` finds, nil for a sound file.
    func integrityProblem() throws -> String? {
        let statement = try database.prepare("PRAGMA quick_check")
        defer { statement.reset() }
        guard try statement.step() == .row else { return "quick_check gave no answer" }
        let answer = statement.text(at: 0)
        return answer == "ok" ? nil : answer
    }

    /// Why nothing this store writes is kept: the file or its folder is read-only, or the store is
    /// a stand-in in memory; nil for a store that saves.
    public var unsavedReason: String? {
        if let standInReason { return standInReason }
        guard !isReadOnly, database.isReadOnly else { return nil }
        return Self.unwritableReason(path) ?? "the usage database \(path) is read-only"
    }

    /// Names the folder or file that cannot be written, if one cannot.
    private static func unwritableReason(_ path: String) -> String? {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let files = FileManager.default
        if files.fileExists(atPath: directory) && !files.isWritableFile(atPath: directory) {
            return "the directory \(directory) is not writable"
        }
        if files.fileExists(atPath: path) && !files.isWritableFile(atPath: path) {
            return "the usage database \(path) is read-only"
        }
        return nil
    }

    deinit {
        // Finalize statements before the connection (they also keep it alive until then).
        statements.removeAll()
    }

    // MARK: Keeping the log

    /// Copies the write-ahead log into the database file; `truncate` also empties the log (at exit).
    public func checkpoint(truncate: Bool) throws {
        try database.exec(truncate ? "PRAGMA wal_checkpoint(TRUNCATE)" : "PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// When the `-wal` file was deleted under this connection (which still writes to the deleted
    /// file, unseen by any reader, and lost at the next crash): copies everything into the database
    /// file through the still-open log, then reopens, which starts a new log. Returns whether it did.
    public func recoverVanishedJournal() throws -> Bool {
        guard !isReadOnly, standInReason == nil else { return false }
        // Another file at the log's path (a reader may create one) is no log of ours either.
        let current = fileNumber(atPath: path + "-wal")
        guard journalIdentity != nil, current != journalIdentity else {
            journalIdentity = journalIdentity ?? current
            return false
        }
        try checkpoint(truncate: true)
        statements.removeAll()
        database = try Self.connect(path: path, readOnly: false)
        journalIdentity = fileNumber(atPath: path + "-wal")
        return true
    }

    // MARK: Writing

    /// Runs `body`'s writes as one transaction: one commit instead of one per write (a focus
    /// switch ends one interval and begins the next). BEGIN and COMMIT are prepared once, not
    /// parsed again at every flush.
    public func transaction(_ body: () throws -> Void) throws {
        try cached("BEGIN IMMEDIATE").run()
        do {
            try body()
            try cached("COMMIT").run()
        } catch {
            try? database.exec("ROLLBACK")
            throw error
        }
    }

    /// Starts an interval at `start`; it counts for nothing until extended.
    public func beginInterval(app: AppID, title: String, mode: String, at start: Date) throws -> IntervalID {
        let statement = try cached("INSERT INTO intervals(app, title, mode, start, end) VALUES(?1, ?2, ?3, ?4, ?4)")
        try statement.bind(.text(app.rawValue), .text(title), .text(mode), .real(start.timeIntervalSince1970))
        try statement.run()
        return IntervalID(rawValue: database.lastInsertRowID)
    }

    /// An interval written whole: one statement where `beginInterval` and `extendInterval` take
    /// two (the agent writes most of its intervals once, after they ended). An end before the
    /// start leaves it empty, as `extendInterval` does.
    public func addInterval(app: AppID, title: String, mode: String, from start: Date, to end: Date) throws -> IntervalID {
        let statement = try cached(Self.intervalsInserts[1])
        try statement.bind(.text(app.rawValue), .text(title), .text(mode), .real(start.timeIntervalSince1970), .real(end.timeIntervalSince1970))
        try statement.run()
        return IntervalID(rawValue: database.lastInsertRowID)
    }

    /// Writes `intervals` whole, as `addInterval` does one (with the same statement's text), up to
    /// `intervalsPerInsert` in one statement: what a flush writes after a stretch of focus
    /// switches, each statement's own run (its cursors, its end) paid once for several rows.
    public func addIntervals(_ intervals: [UsageInterval]) throws {
        var rest = intervals[...]
        while !rest.isEmpty {
            let rows = rest.prefix(Self.intervalsPerInsert)
            rest = rest.dropFirst(rows.count)
            let statement = try cached(Self.intervalsInserts[rows.count])
            var values: [SQLiteValue] = []
            values.reserveCapacity(rows.count * 5)
            for row in rows {
                values += [.text(row.app.rawValue), .text(row.title), .text(row.mode),
                           .real(row.start.timeIntervalSince1970), .real(row.end.timeIntervalSince1970)]
            }
            try statement.bind(values)
            try statement.run()
        }
    }

    static let intervalsPerInsert = 8
    /// The text of each, by its number of rows, made once (a flush would otherwise build its text
    /// at every statement).
    private static let intervalsInserts = (0...intervalsPerInsert).map(intervalsInsert)

    /// `INSERT … VALUES(…), (…)` of `rows` intervals, each ending no earlier than it starts.
    private static func intervalsInsert(rows: Int) -> String {
        let tuples = (0..<rows).map { row in
            let first = row * 5
            return "(?\(first + 1), ?\(first + 2), ?\(first + 3), ?\(first + 4), max(?\(first + 4), ?\(first + 5)))"
        }
        return "INSERT INTO intervals(app, title, mode, start, end) VALUES" + tuples.joined(separator: ", ")
    }

    /// Moves an interval's end to `end`. An end before the interval's start (the clock went back)
    /// leaves it empty instead of negative.
    public func extendInterval(_ id: IntervalID, to end: Date) throws {
        let statement = try cached("UPDATE intervals SET end = max(start, ?1) WHERE id = ?2")
        try statement.bind(.real(end.timeIntervalSince1970), .integer(id.rawValue))
        try statement.run()
        if database.changes == 0 { throw StoreError.unknownInterval(path: path, id: id) }
    }

    public func recordBypass(app: AppID, mode: String, rule: BypassedRule, at: Date, granted: TimeInterval) throws {
        let statement = try cached("INSERT INTO bypasses(app, mode, rule, at, granted) VALUES(?1, ?2, ?3, ?4, ?5)")
        try statement.bind(.text(app.rawValue), .text(mode), .text(rule.rawValue), .real(at.timeIntervalSince1970), .real(granted))
        try statement.run()
    }

    public func recordLimitHit(app: AppID, at: Date, used: TimeInterval) throws {
        let statement = try cached("INSERT INTO limit_hits(app, at, used) VALUES(?1, ?2, ?3)")
        try statement.bind(.text(app.rawValue), .real(at.timeIntervalSince1970), .real(used))
        try statement.run()
    }

    /// Records that `mode` became active, and why ("manual", "schedule", "calendar", …).
    public func recordModeChange(mode: String, reason: String, at: Date) throws {
        let statement = try cached("INSERT INTO mode_changes(mode, reason, at) VALUES(?1, ?2, ?3)")
        try statement.bind(.text(mode), .text(reason), .real(at.timeIntervalSince1970))
        try statement.run()
    }

    /// Records that a notification from `app` (its name or desktop entry) arrived while silenced.
    public func recordHeldNotification(app: String, at: Date) throws {
        let statement = try cached("INSERT INTO held_notifications(app, at) VALUES(?1, ?2)")
        try statement.bind(.text(app), .real(at.timeIntervalSince1970))
        try statement.run()
    }

    // MARK: Reading

    /// How many notifications arrived while silenced within `[from, to)`, per app.
    public func heldNotifications(from: Date, to: Date) throws -> [String: Int] {
        let statement = try cached("SELECT app, count(*) FROM held_notifications WHERE at >= ?1 AND at < ?2 GROUP BY app")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var counts: [String: Int] = [:]
        while try statement.step() == .row {
            counts[statement.text(at: 0)] = Int(statement.double(at: 1))
        }
        return counts
    }

    /// Foreground time per app within `[from, to)`, intervals clipped to the range.
    public func usageByApp(from: Date, to: Date) throws -> [AppID: TimeInterval] {
        let statement = try cached("""
            SELECT app, sum(min(end, ?2) - max(start, ?1)) FROM intervals
            WHERE start < ?2 AND end > ?1 AND end > start GROUP BY app
            """)
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var usage: [AppID: TimeInterval] = [:]
        while try statement.step() == .row {
            usage[AppID(statement.text(at: 0))] = statement.double(at: 1)
        }
        return usage
    }

    /// The non-empty intervals overlapping `[from, to)`, clipped to it, in order of start.
    public func intervals(from: Date, to: Date) throws -> [UsageInterval] {
        var intervals: [UsageInterval] = []
        try eachInterval(from: from, to: to, columns: "app, title, mode") { row, start, end in
            intervals.append(UsageInterval(app: AppID(row.text(at: 0)), title: row.text(at: 1), mode: row.text(at: 2), start: start, end: end))
        }
        return intervals
    }

    /// Hands `body` the intervals of `[from, to)` as `intervals(from:to:)` gives them, without
    /// the titles, which no report shows, and without keeping them: a report of a year tallies
    /// some 70 000 as they are read.
    public func eachReportInterval(from: Date, to: Date, _ body: (UsageReport.Interval) -> Void) throws {
        let names = TextInterner()
        try eachInterval(from: from, to: to, columns: "app, mode") { row, start, end in
            body(UsageReport.Interval(app: AppID(row.text(at: 0, interning: names)), mode: row.text(at: 1, interning: names), start: start, end: end))
        }
    }

    /// Hands `row` each non-empty interval overlapping `[from, to)`, in order of start, with its
    /// `columns` first and its start and end clipped to the range.
    ///
    /// Read in two parts, each through the index that finds it without walking the rest of the
    /// history: the intervals begun before `from` and still running at it (by their end: a week at
    /// the end of a year passes over a few rows, not the year), then those begun inside the range
    /// (by their start, already in order). The unary `+` keeps SQLite off the start index for the
    /// first part; a file an older agent still holds open, without the end index, is read all the same.
    private func eachInterval(from: Date, to: Date, columns: String, _ row: (Statement, Date, Date) -> Void) throws {
        let running = try cached("""
            SELECT \(columns), max(start, ?1), min(end, ?2) FROM intervals
            WHERE end > ?1 AND +start < ?1 AND end > start ORDER BY +start, id
            """)
        let begun = try cached("""
            SELECT \(columns), start, min(end, ?2) FROM intervals
            WHERE start >= ?1 AND start < ?2 AND end > start ORDER BY start, id
            """)
        let times = Int32(columns.split(separator: ",").count)
        for statement in [running, begun] {
            try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
            defer { statement.reset() }
            while try statement.step() == .row {
                row(statement, Date(timeIntervalSince1970: statement.double(at: times)), Date(timeIntervalSince1970: statement.double(at: times + 1)))
            }
        }
    }

    /// The end of the last non-empty interval that began before `instant` (at most `instant`):
    /// a report's first interval is a pickup only after a pause.
    public func lastIntervalEnd(before instant: Date) throws -> Date? {
        let statement = try cached("SELECT min(end, ?1) FROM intervals WHERE start < ?1 AND end > start ORDER BY start DESC, id DESC LIMIT 1")
        try statement.bind(.real(instant.timeIntervalSince1970))
        defer { statement.reset() }
        return try statement.step() == .row ? Date(timeIntervalSince1970: statement.double(at: 0)) : nil
    }

    /// Bypasses made within `[from, to)`, in time order.
    public func bypasses(from: Date, to: Date) throws -> [BypassRecord] {
        let statement = try cached("SELECT app, mode, rule, at, granted FROM bypasses WHERE at >= ?1 AND at < ?2 ORDER BY at, id")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var records: [BypassRecord] = []
        while try statement.step() == .row {
            records.append(BypassRecord(
                app: AppID(statement.text(at: 0)), mode: statement.text(at: 1),
                // A rule this version does not know (a newer agent's) is not a continue past the limit.
                rule: BypassedRule(rawValue: statement.text(at: 2)) ?? .mode,
                at: Date(timeIntervalSince1970: statement.double(at: 3)), granted: statement.double(at: 4)))
        }
        return records
    }

    /// Limits hit within `[from, to)`, in time order.
    public func limitHits(from: Date, to: Date) throws -> [LimitHit] {
        let statement = try cached("SELECT app, at, used FROM limit_hits WHERE at >= ?1 AND at < ?2 ORDER BY at, id")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var hits: [LimitHit] = []
        while try statement.step() == .row {
            hits.append(LimitHit(
                app: AppID(statement.text(at: 0)),
                at: Date(timeIntervalSince1970: statement.double(at: 1)), used: statement.double(at: 2)))
        }
        return hits
    }

    // MARK: Internals

    /// The connection, for tests that inspect the file's schema and pragmas.
    var connection: SQLiteDatabase { database }

    func cached(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The folder and the file made private before SQLite opens it (SQLite gives its log and
    /// shared index the database file's mode).
    private static func makePrivateFile(_ path: String) throws {
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try PrivateFiles.makeFolder(String(path[..<slash])) }
            try PrivateFiles.makeFile(path)
        } catch {
            throw StoreError.directory(path: path, reason: "\(error)")
        }
    }
}
