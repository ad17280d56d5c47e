@testable import DoNotDisturb
@testable import Agent
import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest

/// The agent's modes on the harness's real dunst: a silencing mode pauses it, Standard unpauses
/// it, what arrives meanwhile is stored by app, and the user's state comes back at exit and,
/// after a SIGKILL, from the next start's saved state.
final class DoNotDisturbAgentTests: XCTestCase {
    var desk: DesktopHarness!
    var dunst: DunstControl!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        dunst = try DunstControl(desktop: desk)
        try dunst.setPaused(false)
        addTeardownBlock { [unowned self] in try? dunst.setPaused(false) }
    }

    func mode(_ agent: AgentProcess, _ name: String) throws {
        let result = try agent.cli(["mode", name])
        XCTAssertEqual(result.status, 0, "\(result.err)\nlog: \(agent.log)")
    }

    func testProductivityPausesDunstCountsWhatArrivesAndStandardUnpauses() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: ""), desk: desk)
        try mode(agent, "productivity")
        XCTAssertTrue(try eventually { try dunst.isPaused() }, "log: \(agent.log)")
        try desk.run("notify-send", ["-a", "Chat", "while you work"])
        try desk.run("notify-send", ["-h", "string:desktop-entry:org.example.Mail", "a mail"])
        XCTAssertTrue(eventually {
            let store = try? UsageDatabase(path: agent.databasePath, readOnly: true)
            let held = try? store?.heldNotifications(from: Date().addingTimeInterval(-60), to: Date().addingTimeInterval(1))
            return held == ["Chat": 1, "org.example.Mail": 1]
        }, "held notifications stored by app; log: \(agent.log)")
        // Social is for people: dunst cannot let single apps through, so it leaves notifications on.
        try mode(agent, "social")
        XCTAssertTrue(try eventually { try !dunst.isPaused() }, "log: \(agent.log)")
        try mode(agent, "productivity")
        XCTAssertTrue(try eventually { try dunst.isPaused() }, "log: \(agent.log)")
        try mode(agent, "standard")
        XCTAssertTrue(try eventually { try !dunst.isPaused() }, "log: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0)
    }

    /// A Productivity break gives notifications back for its length, then silences them again.
    func testABreakUnpausesDunstUntilItEnds() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(
            on: desk, config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreak-length = 3s\n"), desk: desk)
        try mode(agent, "productivity")
        XCTAssertTrue(try eventually { try dunst.isPaused() }, "log: \(agent.log)")
        let result = try agent.cli(["break"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(try eventually(2) { try !dunst.isPaused() }, "the break unpauses; log: \(agent.log)")
        XCTAssertTrue(try eventually(6) { try dunst.isPaused() }, "the break's end pauses again; log: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertFalse(try dunst.isPaused(), "exit gives the user's state back")
    }

    /// Prints how long the agent takes from `screentime mode productivity` to dunst paused and
    /// back from `mode standard` (median of 10 each), and its RSS before and while silenced.
    func testSilencingFiguresPrinted() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: ""), desk: desk)
        let before = ProcessMeasures.rssMegabytes(agent.process.processIdentifier)
        var silence: [Double] = []
        var restore: [Double] = []
        var silenced = before
        for _ in 0..<10 {
            var start = Date()
            try mode(agent, "productivity")
            XCTAssertTrue(try eventually { try dunst.isPaused() })
            silence.append(Date().timeIntervalSince(start) * 1000)
            silenced = ProcessMeasures.rssMegabytes(agent.process.processIdentifier)
            start = Date()
            try mode(agent, "standard")
            XCTAssertTrue(try eventually { try !dunst.isPaused() })
            restore.append(Date().timeIntervalSince(start) * 1000)
        }
        let median = { (values: [Double]) in ProcessMeasures.percentile(values.sorted(), 50) }
        let tenths = { (value: Double) in (value * 10).rounded() / 10 }
        print("do-not-disturb on dunst: mode command to paused, median \(Int(median(silence))) ms; to unpaused, median "
              + "\(Int(median(restore))) ms (each including the CLI and polling every 20 ms); agent RSS \(tenths(before)) MB before, "
              + "\(tenths(silenced)) MB while silenced")
        XCTAssertEqual(agent.stop(), 0)
    }

    func testExitGivesTheStateBack() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: ""), desk: desk)
        try mode(agent, "productivity")
        XCTAssertTrue(try eventually { try dunst.isPaused() }, "log: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertFalse(try dunst.isPaused(), "log: \(agent.log)")
    }

    func testAfterASigkillTheNextStartKeepsTheUsersStateToGiveBack() throws {
        // Issue 19: the saved state is private whatever the umask the agent starts with.
        let umasked = umask(0o022)
        defer { umask(umasked) }
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "")
        let saved = SavedNotificationState(environment: environment, server: "dunst")
        let killed = try AgentProcess(environment: environment, desk: desk)
        try mode(killed, "productivity")
        XCTAssertTrue(try eventually { try dunst.isPaused() })
        killed.stop(signal: SIGKILL)
        XCTAssertTrue(try dunst.isPaused(), "a killed agent gives nothing back")
        XCTAssertEqual(saved.read(), "false")
        let attributes = try FileManager.default.attributesOfItem(atPath: saved.path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: XDGPaths.stateDirectory(environment: environment))[.posixPermissions] as? Int, 0o700)
        // The mode outlives the agent: the next start gives the user's state back, then silences
        // again, saving the user's state (not the killed agent's pause).
        let next = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(eventually { next.log.contains("giving back the state saved by an earlier run") }, next.log)
        XCTAssertTrue(try eventually { try dunst.isPaused() && saved.read() == "false" }, next.log)
        try mode(next, "standard")
        XCTAssertTrue(try eventually { try !dunst.isPaused() }, next.log)
        XCTAssertNil(saved.read())
        XCTAssertEqual(next.stop(), 0)
    }
}
