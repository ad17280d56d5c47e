import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// The mode commands against a running agent on the harness's desktop and bus.
final class AgentModeTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    func startAgent() throws -> AgentProcess {
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment["TZ"] = "UTC"
        return try AgentProcess(environment: environment, desk: desk)
    }

    /// `2026-12-24 08:00` in UTC, the form `cheat-day book` takes.
    func when(_ instant: Date) -> String { FixedOffsetZone(seconds: 0).localDateTime(of: instant).description.prefix(16).description }

    func testCheatDayNeedsTwelveHoursNotice() throws {
        let agent = try startAgent()
        let before = Date()
        let early = try agent.cli(["cheat-day", "book", when(before.addingTimeInterval(11 * 3600))])
        let after = Date()
        XCTAssertEqual(early.status, 1, early.err)
        let zone = FixedOffsetZone(seconds: 0)
        let allowed = Set([before, after].map { zone.formatMinute($0.addingTimeInterval(12 * 3600)) })
        XCTAssertTrue(allowed.contains { early.err == "screentime cheat-day: Cheat Day must be booked at least 12 hours ahead; the earliest start now is \($0).\n" },
                      early.err)

        let start = before.addingTimeInterval(13 * 3600)
        let booked = try agent.cli(["cheat-day", "book", when(start)])
        XCTAssertEqual(booked.status, 0, booked.err)
        let id = zone.localDate(of: start).description
        XCTAssertTrue(booked.out.hasPrefix("Cheat Day \(id) booked: \(when(start))"), booked.out)
        let list = try agent.cli(["cheat-day", "list"])
        XCTAssertEqual(list.status, 0, list.err)
        XCTAssertTrue(list.out.hasPrefix("\(id)  \(when(start)) to "), list.out)

        XCTAssertEqual(try agent.cli(["cheat-day", "cancel", id]).status, 0)
        XCTAssertEqual(try agent.cli(["cheat-day", "list"]).out, "No Cheat Day booked.\n")
        // "tomorrow" is the command's: read against its now (SCREENTIME_NOW), in its zone.
        var dated = agent.environment
        let midnight = ((Date().timeIntervalSince1970 + 100 * 86_400) / 86_400).rounded(.down) * 86_400  // in 100 days, 00:00 UTC
        dated["SCREENTIME_NOW"] = String(Int(midnight))
        let day = zone.localDate(of: Date(timeIntervalSince1970: midnight + 86_400)).description
        let tomorrow = try AgentProcess.run(["cheat-day", "book", "tomorrow 20:00"], environment: dated)
        XCTAssertEqual(tomorrow.status, 0, tomorrow.err)
        XCTAssertTrue(tomorrow.out.hasPrefix("Cheat Day \(day) booked: \(day) 20:00"), tomorrow.out)
        XCTAssertEqual(try agent.cli(["cheat-day", "cancel", day]).status, 0)
        XCTAssertEqual(try agent.cli(["cheat-day", "list"]).out, "No Cheat Day booked.\n")
        let again = try agent.cli(["cheat-day", "cancel", id])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.contains("no Cheat Day booked as “\(id)”"), again.err)
    }

    func testModeSwitchAndButtonsAreAccepted() throws {
        let agent = try startAgent()
        let switched = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(switched.status, 0, switched.err)
        XCTAssertTrue(switched.out.hasPrefix("Productivity: "), switched.out)
        for command in [["mode", "auto"], ["break"], ["stay-up"], ["bedtime"], ["start-day"], ["mode"]] {
            let result = try agent.cli(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.err)")
        }
        // Usage errors are caught before the agent is asked.
        XCTAssertEqual(try agent.cli(["mode", "party"]).status, 64)
        XCTAssertEqual(try agent.cli(["cheat-day", "book", "someday"]).status, 64)
        // The switch is stored for the agent's next start.
        agent.stop()
        let store = try UsageDatabase(path: agent.databasePath, readOnly: true)
        XCTAssertNil(try store.manualSwitch(), "`mode auto` cleared it")
        let actions = try store.sleepActions()
        XCTAssertNotNil(actions.bedtimeAt)
        XCTAssertNotNil(actions.stayUpAt)
        XCTAssertNotNil(actions.startDayAt)
        XCTAssertEqual(try store.breakRequests(since: .distantPast).count, 1)
    }
}
