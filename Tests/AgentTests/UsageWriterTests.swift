import Foundation
@testable import Agent
import ScreenTimeCore
import UsageStore
import XCTest

final class UsageWriterTests: XCTestCase {
    func testSwitchesAreWrittenTogetherAtTheFlushAndNothingIsLost() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = try UsageDatabase(path: directory.appendingPathComponent("usage.db").path)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        let writer = UsageWriter(store: store, flushInterval: 2, now: start)
        XCTAssertNil(writer.nextFlush, "nothing to write, nothing to wake for")

        writer.begin(app: "a", title: "x", mode: "standard", at: at(0))
        writer.begin(app: "b", title: "y", mode: "standard", at: at(0.5))
        writer.end(at: at(1))
        writer.begin(app: "a", title: "x", mode: "productivity", at: at(1.5))
        XCTAssertEqual(writer.nextFlush, at(2))
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(10)), [:], "not written before the flush")

        try writer.flush(now: at(2))
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(10)), ["a": 1, "b": 0.5])
        XCTAssertEqual(writer.nextFlush, at(4), "the running interval keeps being written")
        try writer.flush(now: at(4))
        writer.end(at: at(5))
        try writer.flush(now: at(6))
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(10)), ["a": 4, "b": 0.5])
        XCTAssertEqual(try store.intervals(from: at(0), to: at(10)).map(\.mode), ["standard", "standard", "productivity"])
        XCTAssertNil(writer.nextFlush)
    }

    func testAfterAStepBackTheNextWriteIsDueFromTheNewClock() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = try UsageDatabase(path: directory.appendingPathComponent("usage.db").path)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let writer = UsageWriter(store: store, flushInterval: 2, now: start)
        writer.begin(app: "a", title: "x", mode: "standard", at: start)
        try writer.flush(now: start.addingTimeInterval(2))
        // The clock steps back an hour: the engine ends the interval at the last moment seen and
        // begins the next at the new now.
        let stepped = start.addingTimeInterval(3 - 3600)
        writer.end(at: start.addingTimeInterval(3))
        writer.begin(app: "a", title: "x", mode: "standard", at: stepped)
        writer.clockJumped(to: stepped)
        XCTAssertEqual(writer.nextFlush, stepped.addingTimeInterval(2), "not an hour later")
        try writer.flush(now: stepped.addingTimeInterval(2))
        XCTAssertEqual(try store.usageByApp(from: start.addingTimeInterval(-7200), to: start.addingTimeInterval(60)), ["a": 5])
    }
}
