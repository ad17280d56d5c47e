import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// Time not tracked is shown: the real agent stopped (SIGTERM, as `systemctl --user stop` does)
/// or killed (SIGKILL), started again, or a session begun without it; the span is in `report`
/// (text, JSON, HTML) and `status`.
final class UntrackedTimeTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    /// Starts the agent, ends it with `signal`, waits `away` seconds and starts it again.
    func absence(ending signal: Int32, away: TimeInterval) throws -> AgentProcess {
        // The suite's zone: an absence never spans the day's start (04:00).
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let first = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(try first.cli(["status"]).status, 0, first.log)
        let status = first.stop(signal: signal)
        if signal == SIGTERM { XCTAssertEqual(status, 0, first.log) }
        Thread.sleep(forTimeInterval: away)
        let again = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(eventually { (try? again.cli(["status"]).status) == 0 }, again.log)
        return again
    }

    func assertShown(_ agent: AgentProcess, cause: UntrackedCause, detail: String, away: TimeInterval,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try agent.cli(["report", "--json"])
        XCTAssertEqual(json.status, 0, json.err, file: file, line: line)
        let report = try JSONDecoder().decode(UsageReport.self, from: Data(json.out.utf8))
        XCTAssertEqual(report.notTracked.map(\.cause), [cause.rawValue], json.out, file: file, line: line)
        XCTAssertEqual(report.notTracked.first?.detail, detail, file: file, line: line)
        let seconds = report.notTracked.first?.seconds ?? 0
        // A kill is dated from the last minute mark of life, so it may read a little longer.
        XCTAssertGreaterThanOrEqual(seconds, away, file: file, line: line)
        XCTAssertLessThan(seconds, away + (cause == .stopped ? 10 : 70), file: file, line: line)

        let text = try agent.cli(["report"]).out
        XCTAssertTrue(text.contains("\nNot tracked (the agent was not counting):\n  \(cause.words): "), text, file: file, line: line)
        let page = agent.home.appendingPathComponent("report.html")
        XCTAssertEqual(try agent.cli(["report", "--html", page.path]).status, 0, file: file, line: line)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>Not tracked</h2>") && html.contains("data-cause=\"\(cause.rawValue)\""), html, file: file, line: line)

        let status = try agent.cli(["status"]).out
        XCTAssertTrue(status.contains("\nLast not tracked: ") && status.contains(cause.words), status, file: file, line: line)
    }

    func testAnAgentStoppedBySIGTERMLeavesASpanStoppedInTheReport() throws {
        let agent = try absence(ending: SIGTERM, away: 11)
        try assertShown(agent, cause: .stopped, detail: "SIGTERM", away: 11)
    }

    func testAnAgentKilledBySIGKILLLeavesASpanEndedWithoutACleanExit() throws {
        let agent = try absence(ending: SIGKILL, away: 11)
        try assertShown(agent, cause: .endedUnexpectedly, detail: "", away: 11)
    }

    /// A session that began without the agent (its autostart off, started by hand later): the
    /// time from the session's start, which logind gives (the stand-in, as logind answers
    /// `Timestamp`), to the agent's start is not tracked, and says so.
    func testASessionStartedWithoutTheAgentLeavesASpanInTheReport() throws {
        let logind = try StandInLogind(in: desk.root)
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment.merge(logind.environment) { $1 }
        // The last run was the previous session's ("1"), ended cleanly an hour before this one began.
        let data = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("screentime")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let now = Date()
        do {
            let store = try UsageDatabase(path: data.appendingPathComponent("screentime.db").path)
            let run = try store.beginAgentRun(at: now.addingTimeInterval(-7200), session: "1")
            try store.markAgentEnded(run: run, at: now.addingTimeInterval(-3600), reason: "SIGTERM")
        }
        logind.sessionStart = now.addingTimeInterval(-180)
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(agent.databasePath, data.appendingPathComponent("screentime.db").path, "the fixture wrote the agent's store")
        try Wait.until("the agent to record the time before it started", detail: agent.log) {
            try logind.serve()
            let report = try JSONDecoder().decode(UsageReport.self, from: Data(try agent.cli(["report", "--json"]).out.utf8))
            return !report.notTracked.isEmpty
        }
        try assertShown(agent, cause: .noAgent, detail: "", away: 180)
    }
}
