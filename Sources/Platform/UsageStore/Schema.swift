/// The store's schema as a list of migrations: migration n (from 1) brings `PRAGMA user_version`
/// from n-1 to n. Migrations are only ever appended, never edited, so every old file can be upgraded.
enum Schema {
    static let migrations: [String] = [
        // 1: usage intervals, bypasses, limits hit, mode changes. Times are Unix seconds.
        """
        CREATE TABLE intervals(
            id INTEGER PRIMARY KEY,
            app TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            mode TEXT NOT NULL DEFAULT 'standard',
            start REAL NOT NULL,
            end REAL NOT NULL
        );
        CREATE INDEX intervals_start ON intervals(start);
        CREATE INDEX intervals_app_start ON intervals(app, start);
        CREATE TABLE bypasses(
            id INTEGER PRIMARY KEY,
            app TEXT NOT NULL,
            mode TEXT NOT NULL,
            at REAL NOT NULL,
            granted REAL NOT NULL
        );
        CREATE TABLE limit_hits(
            id INTEGER PRIMARY KEY,
            app TEXT NOT NULL,
            at REAL NOT NULL,
            used REAL NOT NULL
        );
        CREATE TABLE mode_changes(
            id INTEGER PRIMARY KEY,
            mode TEXT NOT NULL,
            reason TEXT NOT NULL,
            at REAL NOT NULL
        );
        """,
        // 2: the runtime mode state the CLI changes through the agent. `manual_mode` holds at most
        // one row; a Cheat Day's notice counts from max(booked_at, first_seen), first_seen being
        // when the agent first read the row, so a row added by hand cannot start one sooner.
        """
        CREATE TABLE manual_mode(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            mode TEXT NOT NULL,
            since REAL NOT NULL,
            until REAL
        );
        CREATE TABLE cheat_days(
            id TEXT PRIMARY KEY,
            start REAL NOT NULL,
            booked_at REAL NOT NULL,
            first_seen REAL,
            cancelled_at REAL
        );
        CREATE TABLE sleep_actions(
            kind TEXT PRIMARY KEY,
            at REAL NOT NULL
        );
        CREATE TABLE break_requests(
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL
        );
        """,
        // 3: what a continue went past. Before, a continue past the limit was always recorded as
        // mode 'standard' and every other row was a mode's bypass; now `mode` is the mode it was
        // granted in, so a restart needs the rule to count only continues past the limit.
        """
        ALTER TABLE bypasses ADD COLUMN rule TEXT NOT NULL DEFAULT 'limit';
        UPDATE bypasses SET rule = 'mode' WHERE mode != 'standard';
        """,
        // 4: notifications that arrived while the mode silenced them, per app, for the run-down.
        """
        CREATE TABLE held_notifications(
            id INTEGER PRIMARY KEY,
            app TEXT NOT NULL,
            at REAL NOT NULL
        );
        CREATE INDEX held_notifications_at ON held_notifications(at);
        """,
        // 5: a report reads the intervals still running at its start by their end (by their start
        // alone a week at the end of a year of history walks the whole year; the start beside the
        // end is checked in the index). Bypasses and limits hit by time.
        """
        CREATE INDEX intervals_end ON intervals(end, start);
        CREATE INDEX bypasses_at ON bypasses(at);
        CREATE INDEX limit_hits_at ON limit_hits(at);
        """,
        // 6: a report reads a year of intervals from the index alone: by start (then id, the order
        // it gives them in), with the end, app and mode beside, instead of looking each row up in
        // the table. It serves every search by start, so the plain start index goes.
        """
        CREATE INDEX intervals_report ON intervals(start, id, end, app, mode);
        DROP INDEX intervals_start;
        """,
        // 7: the agent's runs (started, last alive, how it ended) and the spans of the session it
        // was not there for, found at its next start, with their cause (AgentRunRecords); the
        // pauses asked for (`screentime pause`), each from when the loosening rule let it start.
        """
        CREATE TABLE agent_runs(
            id INTEGER PRIMARY KEY,
            started REAL NOT NULL,
            alive REAL NOT NULL,
            ended REAL,
            end_reason TEXT,
            session TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE untracked(
            id INTEGER PRIMARY KEY,
            start REAL NOT NULL,
            end REAL NOT NULL,
            cause TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX untracked_end ON untracked(end, start);
        CREATE TABLE pauses(
            id INTEGER PRIMARY KEY,
            start REAL NOT NULL,
            end REAL NOT NULL,
            requested_at REAL NOT NULL
        );
        CREATE TABLE mode_exits(
            id INTEGER PRIMARY KEY,
            mode TEXT NOT NULL,
            at REAL NOT NULL,
            left REAL,
            granted REAL,
            how TEXT NOT NULL
        );
        """,
        // 8: no query reads intervals by app (a card's or a site's week is read by start and
        // filtered), and every interval written kept the (app, start) index too: a third of an
        // insert's index work, at every flush of a day of focus switches.
        """
        DROP INDEX IF EXISTS intervals_app_start;
        """,
    ]

    static var currentVersion: Int { migrations.count }

    static func version(of database: SQLiteDatabase) throws -> Int {
        let statement = try database.prepare("PRAGMA user_version")
        defer { statement.reset() }
        return try statement.step() == .row ? Int(statement.int64(at: 0)) : 0
    }

    /// Brings a writable file up to `currentVersion`. The version is re-read inside an immediate
    /// (write-locked) transaction so two processes opening a new file do not both migrate it.
    static func migrate(_ database: SQLiteDatabase) throws {
        if try version(of: database) == currentVersion { return }
        try database.exec("BEGIN IMMEDIATE")
        do {
            let found = try version(of: database)
            try rejectNewer(found, database)
            for sql in migrations.dropFirst(found) {
                try database.exec(sql)
            }
            try database.exec("PRAGMA user_version = \(currentVersion)")
            try database.exec("COMMIT")
        } catch {
            try? database.exec("ROLLBACK")
            throw error
        }
    }

    /// Checks that a read-only connection can query the file. A file the agent has not set up
    /// yet (version 0) holds no usage, so it counts as missing.
    static func checkReadable(_ database: SQLiteDatabase) throws {
        let found = try version(of: database)
        if found == 0 { throw StoreError.missing(path: database.path) }
        try rejectNewer(found, database)
    }

    /// Refuses files written by a newer screentime rather than misreading them.
    private static func rejectNewer(_ found: Int, _ database: SQLiteDatabase) throws {
        if found > currentVersion {
            throw StoreError.unsupportedSchema(path: database.path, version: found, newestKnown: currentVersion)
        }
    }
}
