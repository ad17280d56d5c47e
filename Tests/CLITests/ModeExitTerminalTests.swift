import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// `mode standard` during a scheduled Productivity, from a terminal: the mode's words and time
/// left, the question, and the 3 minutes; without a terminal it asks for `--yes` instead.
final class ModeExitTerminalTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    /// An agent in a daily Productivity block that began a minute ago (UTC).
    func agentInProductivity() throws -> AgentProcess {
        let started = FixedOffsetZone(seconds: 0).localDateTime(of: Date().addingTimeInterval(-60)).time
        let at = WallTime(hour: started.hour, minute: started.minute)
        var environment = try AgentProcess.freshEnvironment(
            on: desk, config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[schedule]\nwork = productivity \(at) 3h\n")
        environment["TZ"] = "UTC"
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(eventually { (try? agent.status().mode) == "productivity" }, agent.log)
        return agent
    }

    func testLeavingEarlyAsksOnTheTerminalAndGivesThreeMinutes() throws {
        let agent = try agentInProductivity()
        let session = try TerminalSession(arguments: ["mode", "standard"], environment: agent.environment)
        try session.answer(after: "(yes/no) [no]: ", "yes")
        let output = try session.finish()
        XCTAssertEqual(session.status, 0, output)
        XCTAssertTrue(output.contains("Productivity holds until ") && output.contains("This is the time you set aside to focus."), output)
        XCTAssertTrue(output.contains("Go ahead for 3 min; it comes back after. Recorded as a continue."), output)
        XCTAssertEqual(try agent.status().mode, "standard")
    }

    func testWithoutATerminalItTakesYes() throws {
        let agent = try agentInProductivity()
        let refused = try agent.cli(["mode", "standard"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("leaving it early is a continue: answer on a terminal, or add --yes"), refused.err)
        XCTAssertEqual(try agent.status().mode, "productivity", "nothing changed")
        let yes = try agent.cli(["mode", "standard", "--yes"])
        XCTAssertEqual(yes.status, 0, yes.err)
        XCTAssertEqual(try agent.status().mode, "standard")
        // Read back from the store: in the report as a continue, with what was left and where it was asked.
        let json = try agent.cli(["report", "--json"])
        let report = try JSONDecoder().decode(UsageReport.self, from: Data(json.out.utf8))
        XCTAssertEqual(report.modeExits.map(\.mode), ["productivity"], json.out)
        XCTAssertEqual(report.modeExits.first?.grantedSeconds, 180)
        XCTAssertEqual(report.modeExits.first?.how, "terminal")
        XCTAssertEqual(report.modeExits.first?.leftSeconds ?? 0, 3 * 3600 - 60, accuracy: 90)
        XCTAssertTrue(try agent.cli(["report"]).out.contains("Modes left early: Productivity at "), "in the text too")
    }
}

/// What waits shows in `status` while the agent runs.
final class CommitmentStatusTests: XCTestCase {
    func testStatusShowsTheLooseningThatWaits() throws {
        let desk = try DesktopHarness.shared()
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment["TZ"] = "UTC"
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(try agent.cli(["important", "add", "steam"]).status, 0)
        let status = try agent.cli(["status"])
        XCTAssertEqual(status.status, 0, status.err)
        XCTAssertTrue(status.out.contains("\nWaiting: steam: important (no limit) from "), status.out)
        XCTAssertTrue(try agent.cli(["limit", "list"]).out.contains("\npending: steam: important (no limit) from "))
        let list = try agent.cli(["important", "list"]).out
        XCTAssertTrue(list.hasPrefix("(none)\npending: steam: important (no limit) from "), "what holds, then what waits: \(list)")
    }
}
