import ScreenTimeCore
import XCTest
@testable import UsageStore

final class ModeStateRecordsTests: XCTestCase {
    func store() throws -> UsageDatabase { try UsageDatabase(path: makeTemporaryDirectory(for: self) + "/s.db") }

    func testManualSwitchRoundTripAndClear() throws {
        let db = try store()
        XCTAssertNil(try db.manualSwitch())
        try db.setManualSwitch(ManualSwitch(mode: .productivity, since: at(0)))
        XCTAssertEqual(try db.manualSwitch(), ManualSwitch(mode: .productivity, since: at(0)))
        // One switch at a time: the next replaces it.
        try db.setManualSwitch(ManualSwitch(mode: .windDown, since: at(10), until: at(3600)))
        XCTAssertEqual(try db.manualSwitch(), ManualSwitch(mode: .windDown, since: at(10), until: at(3600)))
        try db.setManualSwitch(nil)
        XCTAssertNil(try db.manualSwitch())
    }

    func testCheatDaysBookCancelAndList() throws {
        let db = try store()
        try db.insertCheatDay(id: "2026-12-24", start: at(86_400), bookedAt: at(0))
        try db.insertCheatDay(id: "2026-12-31", start: at(7 * 86_400), bookedAt: at(5))
        XCTAssertEqual(try db.cheatDays().map(\.id), ["2026-12-24", "2026-12-31"])
        XCTAssertEqual(try db.cheatDays()[0], StoredCheatDay(id: "2026-12-24", start: at(86_400), bookedAt: at(0), firstSeen: at(0)))
        XCTAssertTrue(try db.cancelCheatDay(id: "2026-12-24", at: at(100)))
        XCTAssertFalse(try db.cancelCheatDay(id: "2026-12-24", at: at(200)), "already cancelled")
        XCTAssertFalse(try db.cancelCheatDay(id: "nope", at: at(200)))
        XCTAssertEqual(try db.cheatDays().map(\.id), ["2026-12-31"])
        XCTAssertEqual(try db.cheatDays(includingCancelled: true).first?.cancelledAt, at(100))
        XCTAssertThrowsError(try db.insertCheatDay(id: "2026-12-31", start: at(9), bookedAt: at(9)), "ids are unique")
    }

    /// A row added by hand, claiming to be booked long ago, counts its notice from when the agent
    /// first saw it: starting 2 h after that sight, it does not keep the 12-hour rule.
    func testHandEditedBookingCountsFromFirstSight() throws {
        let db = try store()
        try db.connection.exec("INSERT INTO cheat_days(id, start, booked_at) VALUES('sneaky', \(at(7200).timeIntervalSince1970), 0)")
        XCTAssertNil(try db.cheatDays()[0].firstSeen)
        XCTAssertFalse(try db.cheatDays()[0].booking.respectsNotice, "never seen: no notice at all")
        try db.markCheatDaysSeen(at: at(0))
        try db.markCheatDaysSeen(at: at(50))  // the first sight stays
        let row = try db.cheatDays()[0]
        XCTAssertEqual(row.firstSeen, at(0))
        XCTAssertEqual(row.booking.bookedAt, at(0))
        XCTAssertFalse(row.booking.respectsNotice)
        // The agent's own booking 13 h ahead keeps it.
        try db.insertCheatDay(id: "fair", start: at(13 * 3600), bookedAt: at(0))
        XCTAssertTrue(try db.cheatDays().first { $0.id == "fair" }!.booking.respectsNotice)
    }

    func testSleepActionsKeepTheLatestOfEachKind() throws {
        let db = try store()
        XCTAssertEqual(try db.sleepActions(), SleepActions())
        try db.recordSleepAction(.stayUp, at: at(0))
        try db.recordSleepAction(.stayUp, at: at(60))
        try db.recordSleepAction(.bedtime, at: at(120))
        try db.recordSleepAction(.startDay, at: at(30_000))
        XCTAssertEqual(try db.sleepActions(), SleepActions(stayUpAt: at(60), bedtimeAt: at(120), startDayAt: at(30_000)))
    }

    func testBreakRequestsSince() throws {
        let db = try store()
        for seconds in [0.0, 100, 200] { try db.recordBreakRequest(at: at(seconds)) }
        XCTAssertEqual(try db.breakRequests(since: at(100)), [at(100), at(200)])
    }

    /// The CLI's read-only connection sees what the agent wrote.
    func testReadOnlyConnectionReadsTheState() throws {
        let path = try makeTemporaryDirectory(for: self) + "/s.db"
        let writer = try UsageDatabase(path: path)
        try writer.setManualSwitch(ManualSwitch(mode: .social, since: at(0)))
        let reader = try UsageDatabase(path: path, readOnly: true)
        XCTAssertEqual(try reader.manualSwitch()?.mode, .social)
    }
}
