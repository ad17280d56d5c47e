import XCTest
@testable import UsageStore
import ScreenTimeCore

final class UsageDatabaseTests: XCTestCase {
    private var dir = ""
    private var path: String { dir + "/data/screentime/screentime.db" }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory(for: self)
    }

    // MARK: Opening

    func testCreatesParentDirectoriesPrivately() throws {
        _ = try UsageDatabase(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/data/screentime")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testUncreatableDirectoryIsATypedErrorNamingThePath() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8)))
        let blocked = dir + "/file/screentime/screentime.db"
        XCTAssertThrowsError(try UsageDatabase(path: blocked)) { error in
            guard case .directory(let errorPath, _) = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(errorPath, blocked)
        }
    }

    func testCorruptFileIsATypedErrorNamingThePath() throws {
        try FileManager.default.createDirectory(atPath: dir + "/data/screentime", withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "this is not a database. ", count: 200).utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: garbage))
        for readOnly in [false, true] {
            XCTAssertThrowsError(try UsageDatabase(path: path, readOnly: readOnly)) { error in
                guard case .corrupt(let errorPath, let message) = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(errorPath, self.path)
                XCTAssertFalse(message.isEmpty)
                XCTAssertTrue("\(error)".contains(self.path))
            }
        }
        // The garbage is left for the user to inspect, not overwritten.
        XCTAssertEqual(FileManager.default.contents(atPath: path), garbage)
    }

    func testReadOnlyOpenOfMissingFileIsMissingAndCreatesNothing() throws {
        XCTAssertThrowsError(try UsageDatabase(path: path, readOnly: true)) { error in
            XCTAssertEqual(error as? StoreError, .missing(path: self.path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/data"))
    }

    func testReadOnlyOpenOfFileNotSetUpYetIsMissing() throws {
        try FileManager.default.createDirectory(atPath: dir + "/data/screentime", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        XCTAssertThrowsError(try UsageDatabase(path: path, readOnly: true)) { error in
            XCTAssertEqual(error as? StoreError, .missing(path: self.path))
        }
    }

    func testReadOnlyStoreRefusesWrites() throws {
        _ = try UsageDatabase(path: path)
        let reader = try UsageDatabase(path: path, readOnly: true)
        XCTAssertTrue(reader.isReadOnly)
        XCTAssertThrowsError(try reader.beginInterval(app: "firefox", title: "", mode: "standard", at: at(0))) { error in
            guard case .sqlite(_, let code, _, _) = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(code & 0xff, 8)  // SQLITE_READONLY
        }
    }

    // MARK: Intervals

    func testBeginExtendUsageRoundTrip() throws {
        let db = try UsageDatabase(path: path)
        let firefox = try db.beginInterval(app: "firefox", title: "News", mode: "standard", at: at(0))
        try db.extendInterval(firefox, to: at(2))
        try db.extendInterval(firefox, to: at(90))
        let term = try db.beginInterval(app: "xterm", title: "vim", mode: "focus", at: at(90))
        try db.extendInterval(term, to: at(120))
        let again = try db.beginInterval(app: "firefox", title: "Mail", mode: "focus", at: at(120))
        try db.extendInterval(again, to: at(130))
        XCTAssertNotEqual(firefox, again)

        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(1000)), ["firefox": 100, "xterm": 30])
        XCTAssertEqual(try db.intervals(from: at(0), to: at(1000)), [
            UsageInterval(app: "firefox", title: "News", mode: "standard", start: at(0), end: at(90)),
            UsageInterval(app: "xterm", title: "vim", mode: "focus", start: at(90), end: at(120)),
            UsageInterval(app: "firefox", title: "Mail", mode: "focus", start: at(120), end: at(130)),
        ])
    }

    /// A report reads the same intervals, clipped the same way, without their titles; more apps
    /// than the reader keeps decoded (64), each met again and again, all keep their names.
    func testReportIntervalsAreTheIntervalsWithoutTitles() throws {
        let db = try UsageDatabase(path: path)
        for step in stride(from: 0.0, to: 300, by: 1) {
            let id = try db.beginInterval(app: AppID("org.example.App\(Int(step) * 7 % 70)"), title: "title \(step)",
                                          mode: ["standard", "focus", "social"][Int(step) % 3], at: at(step * 10))
            try db.extendInterval(id, to: at(step * 10 + 8))
        }
        var read: [String] = []
        try db.eachReportInterval(from: at(5), to: at(2_995)) { read.append("\($0.app.rawValue) \($0.mode) \($0.start) \($0.end)") }
        let expected = try db.intervals(from: at(5), to: at(2_995)).map { "\($0.app.rawValue) \($0.mode) \($0.start) \($0.end)" }
        XCTAssertEqual(expected.count, 300)
        XCTAssertEqual(read, expected)
    }

    func testBegunIntervalCountsNothingUntilExtended() throws {
        let db = try UsageDatabase(path: path)
        _ = try db.beginInterval(app: "firefox", title: "", mode: "standard", at: at(10))
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(100)), [:])
        XCTAssertEqual(try db.intervals(from: at(0), to: at(100)), [])
    }

    func testExtendingBeforeTheStartLeavesTheIntervalEmpty() throws {
        let db = try UsageDatabase(path: path)
        let id = try db.beginInterval(app: "firefox", title: "", mode: "standard", at: at(100))
        try db.extendInterval(id, to: at(160))
        try db.extendInterval(id, to: at(40))  // the wall clock went back
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(1000)), [:])
    }

    func testAnIntervalAddedWholeCountsAsOneBegunAndExtended() throws {
        let db = try UsageDatabase(path: path)
        let added = try db.addInterval(app: "firefox", title: "", mode: "standard", from: at(100), to: at(160))
        try db.extendInterval(added, to: at(190))
        let begun = try db.beginInterval(app: "mpv", title: "", mode: "standard", at: at(200))
        try db.extendInterval(begun, to: at(230))
        _ = try db.addInterval(app: "xterm", title: "", mode: "standard", from: at(300), to: at(250))  // the clock went back
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(1000)), ["firefox": 90, "mpv": 30])
    }

    /// Several statements of several rows each: every interval kept, in order, with its title
    /// and mode, and one ending before its start empty.
    func testIntervalsAddedTogetherAreWrittenAsOneByOne() throws {
        let db = try UsageDatabase(path: path)
        let count = 2 * UsageDatabase.intervalsPerInsert + 3
        let intervals = (0..<count).map { (index: Int) -> UsageInterval in
            let start: Double = Double(index * 10)
            let length: Double = index == 5 ? -4 : 7  // the clock went back
            return UsageInterval(app: AppID("app\(index % 3)"), title: "t\(index)", mode: index % 2 == 0 ? "standard" : "social",
                                 start: at(start), end: at(start + length))
        }
        try db.addIntervals(intervals)
        try db.addIntervals([])
        // The one that ended before its start is empty, and a read leaves empty intervals out.
        let kept = intervals.enumerated().filter { $0.offset != 5 }.map(\.element)
        let read = try db.intervals(from: at(0), to: at(10_000))
        XCTAssertEqual(read.map(\.title), kept.map(\.title))
        XCTAssertEqual(read.map(\.mode), kept.map(\.mode))
        XCTAssertEqual(read.map(\.app), kept.map(\.app))
        XCTAssertEqual(Set(read.map { $0.end.timeIntervalSince($0.start) }), [7])
    }

    func testExtendingAnUnknownIntervalThrows() throws {
        let db = try UsageDatabase(path: path)
        let ghost = IntervalID(rawValue: 4242)
        XCTAssertThrowsError(try db.extendInterval(ghost, to: at(1))) { error in
            XCTAssertEqual(error as? StoreError, .unknownInterval(path: self.path, id: ghost))
        }
    }

    func testIntervalsSpanningRangeEdgesAreClipped() throws {
        let db = try UsageDatabase(path: path)
        let day = 86_400.0
        // 23:00 → 01:00 across midnight, then 12:00 → 12:30 on the second day, then 23:30 → 00:30.
        for (app, start, end) in [("firefox", day - 3600, day + 3600), ("xterm", day + 43_200, day + 45_000),
                                  ("firefox", 2 * day - 1800, 2 * day + 1800)] {
            let id = try db.beginInterval(app: AppID(app), title: "t", mode: "standard", at: at(start))
            try db.extendInterval(id, to: at(end))
        }
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(day)), ["firefox": 3600])
        XCTAssertEqual(try db.usageByApp(from: at(day), to: at(2 * day)), ["firefox": 3600 + 1800, "xterm": 1800])
        XCTAssertEqual(try db.usageByApp(from: at(day + 1800), to: at(day + 44_100)), ["firefox": 1800, "xterm": 900])

        let clipped = try db.intervals(from: at(day), to: at(2 * day))
        XCTAssertEqual(clipped.map(\.start), [at(day), at(day + 43_200), at(2 * day - 1800)])
        XCTAssertEqual(clipped.map(\.end), [at(day + 3600), at(day + 45_000), at(2 * day)])
        XCTAssertEqual(clipped.map(\.duration), [3600, 1800, 1800])
    }

    /// The end of the last interval before an instant, clipped to it; empty intervals do not count.
    func testLastIntervalEndBeforeAnInstant() throws {
        let db = try UsageDatabase(path: path)
        XCTAssertNil(try db.lastIntervalEnd(before: at(1000)))
        for (start, end) in [(100.0, 200.0), (300.0, 1500.0), (900.0, 900.0)] {
            let id = try db.beginInterval(app: "xterm", title: "", mode: "standard", at: at(start))
            try db.extendInterval(id, to: at(end))
        }
        XCTAssertEqual(try db.lastIntervalEnd(before: at(250)), at(200))
        XCTAssertEqual(try db.lastIntervalEnd(before: at(1000)), at(1000))
        XCTAssertEqual(try db.lastIntervalEnd(before: at(2000)), at(1500))
    }

    func testRangesAreHalfOpen() throws {
        let db = try UsageDatabase(path: path)
        let id = try db.beginInterval(app: "firefox", title: "", mode: "standard", at: at(0))
        try db.extendInterval(id, to: at(60))
        XCTAssertEqual(try db.usageByApp(from: at(60), to: at(120)), [:])
        XCTAssertEqual(try db.usageByApp(from: at(-60), to: at(0)), [:])
        XCTAssertEqual(try db.intervals(from: at(60), to: at(120)), [])

        try db.recordBypass(app: "firefox", mode: "focus", rule: .mode, at: at(60), granted: 60)
        try db.recordLimitHit(app: "firefox", at: at(60), used: 3600)
        XCTAssertEqual(try db.bypasses(from: at(60), to: at(61)).count, 1)
        XCTAssertEqual(try db.bypasses(from: at(0), to: at(60)).count, 0)
        XCTAssertEqual(try db.limitHits(from: at(60), to: at(61)).count, 1)
        XCTAssertEqual(try db.limitHits(from: at(0), to: at(60)).count, 0)
    }

    func testUntrustedTitleIsStoredVerbatim() throws {
        let db = try UsageDatabase(path: path)
        let title = "'); DROP TABLE intervals; -- \u{202E}evil\u{0}tail 👀"
        let id = try db.beginInterval(app: "firefox", title: title, mode: "standard", at: at(0))
        try db.extendInterval(id, to: at(1))
        XCTAssertEqual(try db.intervals(from: at(0), to: at(1)).first?.title, title)
    }

    // MARK: Events

    func testBypassesAndLimitHitsRoundTripInTimeOrder() throws {
        let db = try UsageDatabase(path: path)
        try db.recordBypass(app: "steam", mode: "bedtime", rule: .mode, at: at(300), granted: 900)
        try db.recordBypass(app: "firefox", mode: "focus", rule: .mode, at: at(100), granted: 60)
        try db.recordLimitHit(app: "firefox", at: at(200), used: 3600)
        XCTAssertEqual(try db.bypasses(from: at(0), to: at(1000)), [
            BypassRecord(app: "firefox", mode: "focus", rule: .mode, at: at(100), granted: 60),
            BypassRecord(app: "steam", mode: "bedtime", rule: .mode, at: at(300), granted: 900),
        ])
        XCTAssertEqual(try db.limitHits(from: at(0), to: at(1000)), [LimitHit(app: "firefox", at: at(200), used: 3600)])
        XCTAssertEqual(try db.bypasses(from: at(150), to: at(1000)).map(\.app), ["steam"])
    }

    func testModeChangesAreRecorded() throws {
        let db = try UsageDatabase(path: path)
        try db.recordModeChange(mode: "focus", reason: "calendar", at: at(5))
        let rows = try db.connection.prepare("SELECT mode, reason, at FROM mode_changes")
        XCTAssertEqual(try rows.step(), .row)
        XCTAssertEqual(rows.text(at: 0), "focus")
        XCTAssertEqual(rows.text(at: 1), "calendar")
        XCTAssertEqual(rows.double(at: 2), at(5).timeIntervalSince1970)
        XCTAssertEqual(try rows.step(), .done)
    }

    // MARK: Durability and concurrency

    func testReopeningTheFileKeepsTheData() throws {
        do {
            let db = try UsageDatabase(path: path)
            let id = try db.beginInterval(app: "firefox", title: "News", mode: "standard", at: at(0))
            try db.extendInterval(id, to: at(42))
            try db.recordBypass(app: "firefox", mode: "focus", rule: .mode, at: at(10), granted: 60)
        }
        let reopened = try UsageDatabase(path: path)
        XCTAssertEqual(try reopened.usageByApp(from: at(0), to: at(100)), ["firefox": 42])
        XCTAssertEqual(try reopened.bypasses(from: at(0), to: at(100)).count, 1)
        // A read-only reader opened after the writer closed (WAL files gone) sees it too.
        XCTAssertEqual(try UsageDatabase(path: path, readOnly: true).usageByApp(from: at(0), to: at(100)), ["firefox": 42])
        // And the writer keeps writing where it left off.
        let next = try reopened.beginInterval(app: "xterm", title: "", mode: "standard", at: at(42))
        try reopened.extendInterval(next, to: at(50))
        XCTAssertEqual(try reopened.usageByApp(from: at(0), to: at(100)), ["firefox": 42, "xterm": 8])
    }

    /// Each extend is committed when it returns: a second connection, opened while the first is
    /// still open (as after the agent is killed without closing), sees the latest end.
    /// The kill -9 end-to-end check belongs to the agent's tests.
    func testExtendIsCommittedBeforeTheWriterCloses() throws {
        let writer = try UsageDatabase(path: path)
        let id = try writer.beginInterval(app: "firefox", title: "", mode: "standard", at: at(0))
        try writer.extendInterval(id, to: at(2))
        try writer.extendInterval(id, to: at(4))
        let other = try UsageDatabase(path: path)
        XCTAssertEqual(try other.usageByApp(from: at(0), to: at(10)), ["firefox": 4])
        withExtendedLifetime(writer) {}
    }

    func testReadOnlyReaderSeesCommitsWhileTheWriterIsOpen() throws {
        let writer = try UsageDatabase(path: path)
        let id = try writer.beginInterval(app: "firefox", title: "", mode: "standard", at: at(0))
        try writer.extendInterval(id, to: at(10))

        let reader = try UsageDatabase(path: path, readOnly: true)
        XCTAssertEqual(try reader.usageByApp(from: at(0), to: at(100)), ["firefox": 10])

        // Later commits show up in the same reader: no stale snapshot is held between queries.
        try writer.extendInterval(id, to: at(25))
        try writer.recordLimitHit(app: "firefox", at: at(25), used: 25)
        XCTAssertEqual(try reader.usageByApp(from: at(0), to: at(100)), ["firefox": 25])
        XCTAssertEqual(try reader.intervals(from: at(0), to: at(100)).map(\.end), [at(25)])
        XCTAssertEqual(try reader.limitHits(from: at(0), to: at(100)).count, 1)

        // And the writer is never blocked by the reader.
        let next = try writer.beginInterval(app: "xterm", title: "", mode: "standard", at: at(25))
        try writer.extendInterval(next, to: at(30))
        XCTAssertEqual(try reader.usageByApp(from: at(0), to: at(100)), ["firefox": 25, "xterm": 5])
    }

    func testManyExtendsOfOneInterval() throws {
        let db = try UsageDatabase(path: path)
        let id = try db.beginInterval(app: "firefox", title: "", mode: "standard", at: at(0))
        for second in 1...500 { try db.extendInterval(id, to: at(Double(second))) }
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(1000)), ["firefox": 500])
    }

    // MARK: Transactions

    func testATransactionCommitsAllOrNothing() throws {
        let db = try UsageDatabase(path: path)
        var first: IntervalID?
        try db.transaction {
            first = try db.beginInterval(app: "a", title: "", mode: "standard", at: at(0))
            try db.extendInterval(first!, to: at(10))
            _ = try db.beginInterval(app: "b", title: "", mode: "standard", at: at(10))
        }
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(60)), ["a": 10], "b has begun, counting nothing yet")
        XCTAssertEqual(try db.intervals(from: at(0), to: at(60)).map(\.app), ["a"])
        struct Abort: Error {}
        XCTAssertThrowsError(try db.transaction {
            try db.extendInterval(first!, to: at(30))
            throw Abort()
        })
        XCTAssertEqual(try db.usageByApp(from: at(0), to: at(60))["a"], 10, "rolled back")
    }

    // MARK: Damage and a deleted log

    func testAnUnreadableFileIsMovedAsideAndAFreshStoreStarted() throws {
        try FileManager.default.createDirectory(atPath: dir + "/data/screentime", withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "this is not a database. ", count: 200).utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: garbage))
        let (store, movedAside) = try UsageDatabase.openForAgent(path: path, now: at(0))
        let aside = try XCTUnwrap(movedAside)
        XCTAssertTrue(aside.hasPrefix(path + ".corrupt-"), aside)
        XCTAssertEqual(FileManager.default.contents(atPath: aside), garbage, "the old file is kept for the user")
        _ = try store.beginInterval(app: "a", title: "", mode: "standard", at: at(0))
    }

    func testADatabaseWithDamagedPagesIsMovedAsideNotWrittenOn() throws {
        do {
            let store = try UsageDatabase(path: path)
            for second in 0..<2000 {
                let row = try store.beginInterval(app: AppID("app\(second % 7)"), title: String(repeating: "t", count: 40), mode: "standard", at: at(Double(second)))
                try store.extendInterval(row, to: at(Double(second) + 1))
            }
            try store.checkpoint(truncate: true)
        }
        // Scribble over pages in the middle of the file, as a bad sector or a torn copy would.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: 4096 * 5)
        try file.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 3))
        try file.close()

        let (store, movedAside) = try UsageDatabase.openForAgent(path: path, now: at(0))
        XCTAssertNotNil(movedAside, "quick_check finds the damage")
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(5000)), [:], "a fresh store")
    }

    func testASoundDatabaseIsKept() throws {
        do { _ = try UsageDatabase(path: path).beginInterval(app: "a", title: "", mode: "standard", at: at(0)) }
        let (_, movedAside) = try UsageDatabase.openForAgent(path: path, now: at(0))
        XCTAssertNil(movedAside)
    }

    func testADeletedLogLosesNoCommittedWrite() throws {
        let store = try UsageDatabase(path: path)
        let row = try store.beginInterval(app: "a", title: "", mode: "standard", at: at(0))
        try store.extendInterval(row, to: at(10))
        XCTAssertFalse(try store.recoverVanishedJournal(), "nothing to do while the log is there")
        try FileManager.default.removeItem(atPath: path + "-wal")
        try store.extendInterval(row, to: at(20))
        XCTAssertNoThrow(try UsageDatabase(path: path, readOnly: true).usageByApp(from: at(0), to: at(100)),
                         "a reader meanwhile reads the database file alone")
        XCTAssertTrue(try store.recoverVanishedJournal())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "a new log is in use")
        try store.extendInterval(row, to: at(30))
        XCTAssertEqual(try UsageDatabase(path: path, readOnly: true).usageByApp(from: at(0), to: at(100)), ["a": 30],
                       "another process reads everything")
    }
}
