import XCTest
@testable import UsageStore

final class SQLiteShimsTests: XCTestCase {
    private func openScratch() throws -> SQLiteDatabase {
        let dir = try makeTemporaryDirectory(for: self)
        let db = try SQLiteDatabase(path: dir + "/scratch.db", readOnly: false)
        try db.exec("CREATE TABLE t(i INTEGER, r REAL, s TEXT, n TEXT NOT NULL DEFAULT 'x')")
        return db
    }

    func testBindsAndReadsEveryType() throws {
        let db = try openScratch()
        let insert = try db.prepare("INSERT INTO t(i, r, s) VALUES(?1, ?2, ?3)")
        try insert.bind(.integer(Int64.min), .real(-0.25), .text("naïve ☕"))
        try insert.run()
        try insert.bind(.integer(Int64.max), .real(1e300), .null)
        try insert.run()
        XCTAssertEqual(db.changes, 1)
        XCTAssertEqual(db.lastInsertRowID, 2)

        let select = try db.prepare("SELECT i, r, s FROM t ORDER BY rowid")
        XCTAssertEqual(try select.step(), .row)
        XCTAssertEqual(select.int64(at: 0), Int64.min)
        XCTAssertEqual(select.double(at: 1), -0.25)
        XCTAssertEqual(select.text(at: 2), "naïve ☕")
        XCTAssertFalse(select.isNull(at: 2))
        XCTAssertEqual(try select.step(), .row)
        XCTAssertEqual(select.int64(at: 0), Int64.max)
        XCTAssertEqual(select.double(at: 1), 1e300)
        XCTAssertTrue(select.isNull(at: 2))
        XCTAssertEqual(select.text(at: 2), "")
        XCTAssertEqual(try select.step(), .done)
    }

    func testTextWithEmbeddedNULIsKeptWhole() throws {
        let db = try openScratch()
        let insert = try db.prepare("INSERT INTO t(s) VALUES(?1)")
        try insert.bind(.text("before\u{0}after"))
        try insert.run()
        let select = try db.prepare("SELECT s, length(CAST(s AS BLOB)) FROM t")
        XCTAssertEqual(try select.step(), .row)
        XCTAssertEqual(select.text(at: 0), "before\u{0}after")
        XCTAssertEqual(select.int64(at: 1), 12)
    }

    func testInvalidUTF8IsRepairedNotTrusted() throws {
        let db = try openScratch()
        try db.exec("INSERT INTO t(s) VALUES(CAST(X'41FF42' AS TEXT))")
        let select = try db.prepare("SELECT s FROM t")
        XCTAssertEqual(try select.step(), .row)
        XCTAssertEqual(select.text(at: 0), "A\u{FFFD}B")
    }

    func testPrepareErrorCarriesMessageAndSQL() throws {
        let db = try openScratch()
        XCTAssertThrowsError(try db.prepare("SELEC 1")) { error in
            guard case .sqlite(let path, let code, let message, let sql) = error as? StoreError else {
                return XCTFail("not a sqlite error: \(error)")
            }
            XCTAssertEqual(path, db.path)
            XCTAssertEqual(code, 1)  // SQLITE_ERROR
            XCTAssertTrue(message.contains("syntax error"), message)
            XCTAssertEqual(sql, "SELEC 1")
            XCTAssertTrue("\(error)".contains("SELEC 1"))
        }
    }

    func testStepErrorCarriesConstraintAndSQL() throws {
        let db = try openScratch()
        let insert = try db.prepare("INSERT INTO t(n) VALUES(?1)")
        try insert.bind(.null)
        XCTAssertThrowsError(try insert.run()) { error in
            guard case .sqlite(_, let code, let message, let sql) = error as? StoreError else {
                return XCTFail("not a sqlite error: \(error)")
            }
            XCTAssertEqual(code & 0xff, 19)  // SQLITE_CONSTRAINT
            XCTAssertTrue(message.contains("NOT NULL"), message)
            XCTAssertEqual(sql, "INSERT INTO t(n) VALUES(?1)")
        }
        // The statement is usable again after the failure.
        try insert.bind(.text("ok"))
        try insert.run()
        XCTAssertEqual(db.changes, 1)
    }

    func testExecErrorCarriesSQL() throws {
        let db = try openScratch()
        XCTAssertThrowsError(try db.exec("INSERT INTO missing VALUES(1)")) { error in
            guard case .sqlite(_, _, let message, let sql) = error as? StoreError else {
                return XCTFail("not a sqlite error: \(error)")
            }
            XCTAssertTrue(message.contains("no such table"), message)
            XCTAssertEqual(sql, "INSERT INTO missing VALUES(1)")
        }
    }

    func testEmptySQLIsAnError() throws {
        let db = try openScratch()
        XCTAssertThrowsError(try db.prepare("  -- nothing")) { error in
            XCTAssertEqual((error as? StoreError)?.path, db.path)
        }
    }

    func testReadOnlyOpenOfMissingFileFailsWithoutCreatingIt() throws {
        let dir = try makeTemporaryDirectory(for: self)
        XCTAssertThrowsError(try SQLiteDatabase(path: dir + "/absent.db", readOnly: true)) { error in
            XCTAssertEqual((error as? StoreError)?.path, dir + "/absent.db")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/absent.db"))
    }
}
