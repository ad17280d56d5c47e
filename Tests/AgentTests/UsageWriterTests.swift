import Foundation
import Glibc
@testable import Agent
import ScreenTimeCore
import UsageStore
import XCTest

final class UsageWriterTests: XCTestCase {
    private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    private func makeStore() throws -> UsageDatabase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return try UsageDatabase(path: directory.appendingPathComponent("usage.db").path)
    }

    func testSwitchesAreWrittenTogetherAtTheFlushAndNothingIsLost() throws {
        let store = try makeStore()
        let writer = UsageWriter(store: store, flushInterval: 2, now: at(0))
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
        let store = try makeStore()
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

    /// A full disk, for real: the process may not grow any file while `body` runs (RLIMIT_FSIZE,
    /// its SIGXFSZ ignored, so writes fail with EFBIG as they would with ENOSPC).
    private func withFullDisk(_ body: () throws -> Void) rethrows {
        let fileSize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        var saved = rlimit()
        getrlimit(fileSize, &saved)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var full = saved
        full.rlim_cur = 0
        setrlimit(fileSize, &full)
        defer {
            setrlimit(fileSize, &saved)
            signal(SIGXFSZ, previousHandler)
        }
        try body()
    }

    func testAFailedCommitKeepsThePendingTimeAndTheNextFlushSavesIt() throws {
        let store = try makeStore()
        let writer = UsageWriter(store: store, flushInterval: 2, now: at(0))

        writer.begin(app: "a", title: "x", mode: "standard", at: at(0))
        try writer.flush(now: at(2))
        writer.begin(app: "b", title: "y", mode: "standard", at: at(3))
        writer.record(.limitHit(app: "b", at: at(3), used: 60), at: at(3))
        XCTAssertEqual(writer.nextFlush, at(3), "a record is written at once")
        writer.record(.bypass(app: "b", mode: "standard", rule: .limit, at: at(3.5), granted: 3600), at: at(3.5))
        writer.record(.modeChange(mode: "social", reason: "manual", at: at(3.5)), at: at(3.5))
        try withFullDisk {
            XCTAssertThrowsError(try writer.flush(now: at(4)), "the COMMIT cannot grow the log")
            XCTAssertEqual(writer.problem?.since, at(4))
            XCTAssertThrowsError(try writer.flush(now: at(6)))
            XCTAssertEqual(writer.problem?.since, at(4), "the problem dates from the first failure")
            XCTAssertFalse(writer.problem?.reason.isEmpty ?? true)
        }
        XCTAssertEqual(writer.nextFlush, at(8), "retried at the next flush")
        try writer.flush(now: at(8))
        XCTAssertNil(writer.problem, "saving works again")
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(20)), ["a": 3, "b": 5], "nothing counted during the failure is lost")
        try writer.flush(now: at(10))
        XCTAssertEqual(try store.usageByApp(from: at(0), to: at(20)), ["a": 3, "b": 7], "the running interval keeps its committed row")
        XCTAssertEqual(try store.intervals(from: at(0), to: at(20)).count, 2)
        XCTAssertEqual(try store.limitHits(from: at(0), to: at(20)).map(\.used), [60], "records are kept through the failure too")
        XCTAssertEqual(try store.bypasses(from: at(0), to: at(20)).map(\.granted), [3600])
    }
}
