import ScreenTimeCore
import XCTest
import UsageStore

final class ModeChangeRecordsTests: XCTestCase {
    func testModeChangesWithinARangeInTimeOrder() throws {
        let db = try UsageDatabase(path: makeTemporaryDirectory(for: self) + "/s.db")
        try db.recordModeChange(mode: "sleep", reason: "schedule", at: at(200))
        try db.recordModeChange(mode: "wind-down", reason: "schedule", at: at(100))
        try db.recordModeChange(mode: "wake-up", reason: "schedule", at: at(300))
        try db.recordModeChange(mode: "standard", reason: "manual", at: at(400))
        let changes = try db.modeChanges(from: at(100), to: at(400))
        XCTAssertEqual(changes.map(\.mode), ["wind-down", "sleep", "wake-up"])
        XCTAssertEqual(changes.map(\.at), [at(100), at(200), at(300)])
    }
}
