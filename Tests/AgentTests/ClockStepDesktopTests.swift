import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// The agent's wall clock stepped while it runs (libfaketime), as a suspend or a clock set by hand
/// does: nothing of a step forward is counted, a step back keeps what was counted and saving goes on.
final class ClockStepDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    func startAgent(clock: SteppedClock) throws -> AgentProcess {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        return try AgentProcess(environment: environment, desk: desk, agentOnly: clock.environment)
    }

    /// What the agent has written for `app`, whatever its clock said (a day either side).
    func saved(_ app: AppID, _ agent: AgentProcess) throws -> TimeInterval {
        let store = try UsageDatabase(path: agent.databasePath, readOnly: true)
        return try store.usageByApp(from: Date().addingTimeInterval(-86_400), to: Date().addingTimeInterval(86_400))[app] ?? 0
    }

    func focus(_ app: String, _ agent: AgentProcess) throws {
        let window = try windows.openWindow(class: app.capitalized, title: app)
        addTeardownBlock { [windows] in windows?.close(window) } // later tests start from an empty desktop
        windows.activate(window)
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID(app) }, agent.log)
    }

    /// Steps the agent's clock by `offset` and waits until the agent says it saw the jump.
    func step(_ clock: SteppedClock, by offset: TimeInterval, _ agent: AgentProcess) throws {
        try clock.set(offset: offset)
        try Wait.until("the agent to see its clock jump by \(Int(offset)) s", detail: agent.log) {
            agent.log.contains("the clock jumped by ")
        }
    }

    func testAStepForwardOfTwoHoursCountsNothingOfTheStep() throws {
        let clock = try SteppedClock(in: desk.root)
        let agent = try startAgent(clock: clock)
        try focus("sleeper", agent)
        let start = Date()
        try Wait.until("some use of sleeper counted before the step", detail: agent.log) { try agent.usedSeconds("sleeper") > 0.3 }
        try step(clock, by: 7200, agent)
        let atStep = try agent.usedSeconds("sleeper")
        try Wait.until("counting to go on after the step", detail: agent.log) { try agent.usedSeconds("sleeper") > atStep + 0.5 }
        let counted = try agent.usedSeconds("sleeper")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThanOrEqual(counted, elapsed + 1, "the step is not counted: \(agent.log)")
        XCTAssertGreaterThanOrEqual(counted, elapsed - 2.5, "counting goes on after the step")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let written = try saved("sleeper", agent)
        XCTAssertLessThanOrEqual(written, elapsed + 1)
        print("clock +2 h: \(String(format: "%.1f", counted)) s counted, \(String(format: "%.1f", written)) s saved over \(String(format: "%.1f", elapsed)) s of real use")
    }

    func testAStepBackOfAnHourKeepsWhatWasCountedAndGoesOnSaving() throws {
        let clock = try SteppedClock(in: desk.root)
        let agent = try startAgent(clock: clock)
        try focus("stepper", agent)
        let start = Date()
        try Wait.until("a first save of stepper's time", detail: agent.log) { ((try? saved("stepper", agent)) ?? 0) > 0 }
        let savedAtStep = try saved("stepper", agent)
        try step(clock, by: -3600, agent)
        try Wait.until("a save after the step back", timeout: 6, detail: agent.log) { ((try? saved("stepper", agent)) ?? 0) > savedAtStep + 1 }
        let savedLater = try saved("stepper", agent)
        XCTAssertGreaterThan(savedLater, savedAtStep + 1, "saving goes on after the step back: \(agent.log)")
        let counted = try agent.usedSeconds("stepper")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(counted, elapsed, accuracy: 2, "nothing counted before the step is lost, counting goes on")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let written = try saved("stepper", agent)
        XCTAssertEqual(written, elapsed, accuracy: 2)
        let intervals = try UsageDatabase(path: agent.databasePath, readOnly: true)
            .intervals(from: Date().addingTimeInterval(-86_400), to: Date().addingTimeInterval(86_400))
        XCTAssertTrue(intervals.allSatisfy { $0.end >= $0.start }, "\(intervals)")
        print("clock -1 h: \(String(format: "%.1f", counted)) s counted, \(String(format: "%.1f", written)) s saved over \(String(format: "%.1f", elapsed)) s of real use")
    }
}
