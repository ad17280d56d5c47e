import XCTest
@testable import UsageStore

final class SchemaTests: XCTestCase {
    private func scalar(_ db: UsageDatabase, _ sql: String) throws -> String {
        let statement = try db.connection.prepare(sql)
        XCTAssertEqual(try statement.step(), .row, sql)
        return statement.text(at: 0)
    }

    func testNewFileHasTablesIndexesAndVersion() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let db = try UsageDatabase(path: dir + "/s.db")
        let names = try db.connection.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        var found: [String] = []
        while try names.step() == .row { found.append(names.text(at: 0)) }
        XCTAssertEqual(found, ["agent_runs", "break_requests", "bypasses", "bypasses_at", "cheat_days", "held_notifications", "held_notifications_at", "intervals", "intervals_end", "intervals_report",
                               "limit_hits", "limit_hits_at", "manual_mode", "mode_changes", "mode_exits", "pauses", "sleep_actions", "untracked", "untracked_end"])
        XCTAssertEqual(try Schema.version(of: db.connection), 8)
        XCTAssertEqual(Schema.currentVersion, 8)
        // A report's intervals come from the index alone, in the order it wants.
        let report = try db.connection.prepare("EXPLAIN QUERY PLAN SELECT app, mode, start, min(end, 9) FROM intervals WHERE start >= 0 AND start < 9 AND end > start ORDER BY start, id")
        var steps: [String] = []
        while try report.step() == .row { steps.append(report.text(at: 3)) }
        XCTAssertEqual(steps, ["SEARCH intervals USING COVERING INDEX intervals_report (start>? AND start<?)"])
    }

    /// A file of version 4 (an older agent still running) has no end index: a reader still gets its intervals.
    func testReaderOfAVersion4FileReadsIntervals() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let writer = try UsageDatabase(path: dir + "/s.db")
        let id = try writer.beginInterval(app: "xterm", title: "", mode: "standard", at: Date(timeIntervalSince1970: 100))
        try writer.extendInterval(id, to: Date(timeIntervalSince1970: 400))
        try writer.connection.exec("DROP INDEX intervals_end; PRAGMA user_version = 4")
        let reader = try UsageDatabase(path: dir + "/s.db", readOnly: true)
        XCTAssertEqual(try reader.intervals(from: Date(timeIntervalSince1970: 200), to: Date(timeIntervalSince1970: 1000)).map(\.duration), [200])
    }

    /// A file of version 5 gets the report index in place of the start index (and loses the per-app
    /// index), its rows kept.
    func testAVersion5FileGetsTheReportIndex() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let old = try UsageDatabase(path: dir + "/s.db")
        let id = try old.beginInterval(app: "xterm", title: "", mode: "standard", at: Date(timeIntervalSince1970: 100))
        try old.extendInterval(id, to: Date(timeIntervalSince1970: 400))
        try old.connection.exec("DROP INDEX intervals_report; CREATE INDEX intervals_start ON intervals(start); CREATE INDEX IF NOT EXISTS intervals_app_start ON intervals(app, start); DROP TABLE agent_runs; DROP TABLE untracked; DROP TABLE pauses; DROP TABLE mode_exits; PRAGMA user_version = 5")
        let upgraded = try UsageDatabase(path: dir + "/s.db")
        XCTAssertEqual(try Schema.version(of: upgraded.connection), 8)
        XCTAssertEqual(try scalar(upgraded, "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE name LIKE 'intervals_%' ORDER BY name)"), "intervals_end,intervals_report")
        XCTAssertEqual(try upgraded.intervals(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 1000)).map(\.duration), [300])
    }

    func testConnectionPragmas() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let db = try UsageDatabase(path: dir + "/s.db")
        XCTAssertEqual(try scalar(db, "PRAGMA journal_mode"), "wal")
        XCTAssertEqual(try scalar(db, "PRAGMA synchronous"), "1")  // NORMAL
        XCTAssertEqual(try scalar(db, "PRAGMA busy_timeout"), "2000")
        XCTAssertEqual(try scalar(db, "PRAGMA foreign_keys"), "1")
    }

    func testWALIsRecordedInTheFileHeader() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let path = dir + "/s.db"
        _ = try UsageDatabase(path: path)
        // Bytes 18 and 19 of the header are the read/write format versions: 2 means WAL.
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
        XCTAssertEqual(Array(header.prefix(16)), Array("SQLite format 3\0".utf8))
        XCTAssertEqual(header[18], 2)
        XCTAssertEqual(header[19], 2)
    }

    func testReopeningDoesNotMigrateAgain() throws {
        let dir = try makeTemporaryDirectory(for: self)
        _ = try UsageDatabase(path: dir + "/s.db")
        let again = try UsageDatabase(path: dir + "/s.db")
        XCTAssertEqual(try Schema.version(of: again.connection), 8)
    }

    func testNewerSchemaIsRefusedByWriterAndReader() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let path = dir + "/s.db"
        try UsageDatabase(path: path).connection.exec("PRAGMA user_version = 9")
        let expected = StoreError.unsupportedSchema(path: path, version: 9, newestKnown: 8)
        XCTAssertThrowsError(try UsageDatabase(path: path)) { XCTAssertEqual($0 as? StoreError, expected) }
        XCTAssertThrowsError(try UsageDatabase(path: path, readOnly: true)) { XCTAssertEqual($0 as? StoreError, expected) }
    }

    func testFailedMigrationLeavesFileUntouched() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let path = dir + "/s.db"
        // A table named like one of ours makes migration 1 fail half-way.
        let raw = try SQLiteDatabase(path: path, readOnly: false)
        try raw.exec("CREATE TABLE limit_hits(x)")
        XCTAssertThrowsError(try UsageDatabase(path: path)) { error in
            guard case .sqlite(_, _, let message, _) = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("limit_hits"), message)
        }
        // Rolled back: no intervals table, version still 0.
        XCTAssertEqual(try Schema.version(of: raw), 0)
        XCTAssertThrowsError(try raw.exec("SELECT * FROM intervals"))
    }

    /// A file written by schema 1 gains the mode-state tables and keeps its usage.
    func testVersion1FileIsMigratedToTheLatestKeepingItsRows() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let path = dir + "/s.db"
        let raw = try SQLiteDatabase(path: path, readOnly: false)
        try raw.exec(Schema.migrations[0])
        try raw.exec("PRAGMA user_version = 1")
        try raw.exec("INSERT INTO intervals(app, start, end) VALUES('xterm', 10, 70)")
        let db = try UsageDatabase(path: path)
        XCTAssertEqual(try Schema.version(of: db.connection), 8)
        XCTAssertEqual(try db.usageByApp(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 100)), ["xterm": 60])
        XCTAssertNil(try db.manualSwitch())
        XCTAssertEqual(try db.cheatDays(), [])
    }

    /// Before schema 3 a continue past the limit was recorded as mode `standard`, a mode's bypass
    /// under its mode: the migration tells them apart, so a restart counts only the first.
    func testVersion2BypassesLearnWhatTheyWentPast() throws {
        let dir = try makeTemporaryDirectory(for: self)
        let path = dir + "/s.db"
        let raw = try SQLiteDatabase(path: path, readOnly: false)
        try raw.exec(Schema.migrations[0] + Schema.migrations[1])
        try raw.exec("PRAGMA user_version = 2")
        try raw.exec("INSERT INTO bypasses(app, mode, at, granted) VALUES('firefox', 'standard', 10, 3600)")
        try raw.exec("INSERT INTO bypasses(app, mode, at, granted) VALUES('xterm', 'productivity', 20, 180)")
        let db = try UsageDatabase(path: path)
        XCTAssertEqual(try db.bypasses(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 100)), [
            BypassRecord(app: "firefox", mode: "standard", rule: .limit, at: Date(timeIntervalSince1970: 10), granted: 3600),
            BypassRecord(app: "xterm", mode: "productivity", rule: .mode, at: Date(timeIntervalSince1970: 20), granted: 180),
        ])
    }
}
