import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// `break`, `bedtime`, `stay-up` and `start-day` against the running agent: each command is judged
/// by the mode that results, as `status` then tells it, not by its exit code alone.
final class CLIAgainstAgentModeTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    func agentInWindDown() throws -> AgentProcess {
        let agent = try AgentProcess.inWindDown(on: desk)
        XCTAssertEqual(try agent.status().mode, "wind-down", "the fixture: Wind Down before the pinned bedtime")
        return agent
    }

    func run(_ agent: AgentProcess, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try agent.cli(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.err)\nlog: \(agent.log)", file: file, line: line)
        return result.out
    }

    func testStayUpPausesWindDownForAnHour() throws {
        let agent = try agentInWindDown()
        XCTAssertEqual(try run(agent, ["stay-up"]), "Wind Down is paused for 1 h. Your choice; enjoy it.\n")
        let status = try agent.status()
        XCTAssertEqual(status.mode, "standard", status.reason)
        let next = try XCTUnwrap(status.next, "Wind Down comes back when the pause ends")
        XCTAssertEqual(next.mode, "wind-down")
        XCTAssertEqual(next.inSeconds, 3600, accuracy: 60)
    }

    func testBedtimeStartsSleepAndStartDayEndsIt() throws {
        let agent = try agentInWindDown()
        XCTAssertEqual(try run(agent, ["bedtime"]), "Good night. Sleep mode is on until the morning.\n")
        let night = try agent.status()
        XCTAssertEqual(night.mode, "sleep")
        XCTAssertTrue(night.reason.hasPrefix("you went to bed at "), night.reason)
        XCTAssertEqual(night.next?.mode, "wake-up", "Sleep lasts until Wake Up")

        XCTAssertEqual(try run(agent, ["start-day"]), "Good morning. Have a good day.\n")
        let day = try agent.status()
        XCTAssertEqual(day.mode, "standard", day.reason)
        XCTAssertNotEqual(day.next?.mode, "sleep", "the night said goodbye to stays over")
    }

    func testBreakStartsAProductivityBreakNow() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let agent = try AgentProcess(environment: environment, desk: desk)
        _ = try run(agent, ["mode", "productivity"])
        let working = try agent.status()
        XCTAssertEqual(working.mode, "productivity")
        XCTAssertNil(working.breakSecondsLeft)
        XCTAssertNotNil(working.nextBreakSeconds, "Productivity counts toward its hourly break")

        XCTAssertEqual(try run(agent, ["break"]), "A 5 min break starts now: stand up, look out of a window, have some water.\n")
        let onBreak = try agent.status()
        XCTAssertEqual(onBreak.mode, "productivity")
        XCTAssertEqual(try XCTUnwrap(onBreak.breakSecondsLeft, "the break is under way"), 300, accuracy: 5)
    }
}
