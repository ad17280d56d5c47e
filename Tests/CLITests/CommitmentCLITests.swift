import Foundation
import Harnesses
import XCTest

/// Loosening waits from the command line, with no agent running: the command says when, `limit
/// list` and `pending` show it, `pending cancel` takes it back, and a typo fixed at once is no commitment.
final class CommitmentCLITests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]
    var config: URL { home.appendingPathComponent(".config/screentime/config") }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("commitment-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = ["HOME": home.path, "TZ": Self.middayZone, "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": home.path + "/share",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try AgentProcess.run(arguments, environment: environment)
    }

    /// "today, 04:00" between midnight and 04:00 UTC, else "tomorrow, 04:00".
    func assertWaits(_ out: String, _ prefix: String, stays: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(out.hasPrefix(prefix + " from "), out, file: file, line: line)
        XCTAssertTrue(out.contains(", 04:00; "), out, file: file, line: line)
        XCTAssertTrue(out.hasSuffix("it stays \(stays)\n"), out, file: file, line: line)
    }

    func testARaiseWaitsIsListedAndCanBeTakenBack() throws {
        let raised = try run(["limit", "set", "firefox", "2h"])
        XCTAssertEqual(raised.status, 0, raised.err)
        assertWaits(raised.out, "firefox: 2h a day", stays: "1h")
        // The file says what the user wants; what holds is in the book until the day start.
        XCTAssertTrue(try String(contentsOf: config, encoding: .utf8).contains("firefox = 2h"))
        let list = try run(["limit", "list"]).out
        XCTAssertFalse(list.contains("firefox  2h"), list)
        XCTAssertTrue(list.contains("\npending: firefox: 2h a day from "), list)
        let pending = try run(["pending"]).out
        XCTAssertTrue(pending.contains("  id: limit:firefox"), pending)

        XCTAssertEqual(try run(["pending", "cancel", "limit:firefox"]).out, "limit:firefox: taken back; what holds now stays\n")
        XCTAssertFalse(try String(contentsOf: config, encoding: .utf8).contains("firefox ="))
        XCTAssertEqual(try run(["pending"]).out, "Nothing is waiting: every change you made holds now.\n")
        XCTAssertEqual(try run(["pending", "cancel", "all"]).status, 1)
    }

    func testATypoFixedAtOnceIsNoCommitment() throws {
        XCTAssertEqual(try run(["limit", "set", "firefox", "10m"]).out, "firefox: 10m a day\n", "tightening is instant")
        XCTAssertEqual(try run(["limit", "rm", "firefox"]).out, "firefox: back to the default limit (1h)\n")
        XCTAssertEqual(try run(["pending"]).out, "Nothing is waiting: every change you made holds now.\n")
    }

    func testEveryWayOfLooseningWaits() throws {
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[schedule]\nwork = productivity 09:00 3h mon-fri\n".write(to: config, atomically: true, encoding: .utf8)
        let important = try run(["important", "add", "steam"]).out
        XCTAssertTrue(important.hasPrefix("steam: important (no limit) from ") && important.hasSuffix(" its limits hold\n"), important)
        assertWaits(try run(["limit", "default", "3h"]).out, "default limit: 3h a day", stays: "1h")
        assertWaits(try run(["config", "set", "modes.productivity", "off"]).out, "Productivity: off", stays: "on")
        let removed = try run(["schedule", "rm", "work"]).out
        XCTAssertTrue(removed.hasPrefix("schedule work (productivity 09:00 3h mon-fri): removed from "), removed)
        assertWaits(try run(["config", "set", "commitment.loosen", "now"]).out, "[commitment] loosen = now", stays: "next-day")
        XCTAssertEqual(try run(["pending"]).out.components(separatedBy: "  id: ").count, 6)
        // Tightening stays instant.
        XCTAssertEqual(try run(["limit", "set", "steam", "5m"]).out, "steam: 5m a day\n")
    }
}
