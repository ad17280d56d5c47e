@testable import DoNotDisturb
@testable import Agent
import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Do-not-disturb on the harness's real dunst: paused while silenced, the user's own state given
/// back after, at exit and at the next start after a kill; what arrives meanwhile counted.
final class DoNotDisturbDunstTests: XCTestCase {
    var desk: DesktopHarness!
    var home: URL!
    var dunst: DunstControl!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        home = desk.root.appendingPathComponent("dnd-\(UUID().uuidString.prefix(8))")
        dunst = try DunstControl(desktop: desk)
        try dunst.setPaused(false)
        // The harness's dunst is shared: it is left running, as the other tests expect.
        addTeardownBlock { [unowned self] in try? dunst.setPaused(false) }
    }

    func fixture() throws -> DoNotDisturbFixture {
        try DoNotDisturbFixture.started(busAddress: desk.busAddress, home: home, expecting: "dunst")
    }

    func testSilencingPausesDunstAndTheEndGivesItBack() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertTrue(try dunst.isPaused())
        XCTAssertEqual(dnd.savedState(server: "dunst"), "false", "the user's state is on disk before the change")
        dnd.set(.heldAndSummarised)
        XCTAssertTrue(try dunst.isPaused())
        dnd.set(.normal)
        XCTAssertFalse(try dunst.isPaused())
        XCTAssertNil(dnd.savedState(server: "dunst"), "nothing left to give back")
    }

    func testAUserWhoPausedDunstFindsItPausedAfterwards() throws {
        try dunst.setPaused(true)
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertTrue(try dunst.isPaused())
        dnd.set(.normal)
        XCTAssertTrue(try dunst.isPaused(), "the user's own pause stays")
    }

    func testSocialLeavesDunstOnSinceNoAppCanPass() throws {
        let dnd = try fixture()
        dnd.set(.onlyCallsMessagesAndChosenApps)
        XCTAssertFalse(try dunst.isPaused())
        dnd.set(.silenced)
        XCTAssertTrue(try dunst.isPaused())
        dnd.set(.onlyCallsMessagesAndChosenApps)
        XCTAssertFalse(try dunst.isPaused(), "from a silencing mode to Social, notifications come back")
    }

    func testExitGivesTheStateBack() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertTrue(try dunst.isPaused())
        dnd.controller.restoreAtExit(advanceClock: {})
        XCTAssertFalse(try dunst.isPaused())
        XCTAssertNil(dnd.savedState(server: "dunst"))
    }

    func testTheNextStartAfterAKillGivesTheStateBack() throws {
        let killed = try fixture()
        killed.set(.silenced)
        XCTAssertTrue(try dunst.isPaused())
        killed.kill()
        XCTAssertTrue(try dunst.isPaused(), "a killed agent gives nothing back")
        let next = try fixture()
        XCTAssertTrue(try next.pump { try !dunst.isPaused() }, "the next start unpauses what it finds saved")
        XCTAssertNil(next.savedState(server: "dunst"))
        next.set(.silenced)
        XCTAssertEqual(next.savedState(server: "dunst"), "false", "the user's state, not the killed agent's pause")
        next.set(.normal)
        XCTAssertFalse(try dunst.isPaused())
    }

    func testWhatArrivesWhileSilencedIsCountedByApp() throws {
        let dnd = try fixture()
        try desk.run("notify-send", ["-a", "Before", "not silenced yet"])
        dnd.set(.silenced)
        try desk.run("notify-send", ["-a", "Chat", "one"])
        try desk.run("notify-send", ["-a", "Chat", "two"])
        try desk.run("notify-send", ["-a", "Mail", "-h", "string:desktop-entry:org.example.Mail", "three"])
        // The agent's own notification, sent on its connection, is not counted.
        var own = false
        try dnd.client.show(NotificationRequest(icon: "", summary: "2 min left", body: "", actions: [], urgency: .normal, expireTimeout: 0),
                            replacing: 0) { _ in own = true }
        XCTAssertTrue(dnd.pump { own && dnd.held.count >= 3 }, "held: \(dnd.held)")
        XCTAssertEqual(dnd.held, ["Chat", "Chat", "org.example.Mail"])
        dnd.set(.normal)
        try desk.run("notify-send", ["-a", "After", "the silence ended"])
        dnd.pump(for: 0.3) { false }
        XCTAssertEqual(dnd.held.count, 3, "the monitor closes with the silence")
    }

    func testTheAgentGivesBackWhatAKilledAgentLeftPaused() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "")
        try SavedNotificationState(environment: environment, server: "dunst").write("false")
        try dunst.setPaused(true)
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(try eventually { try !dunst.isPaused() }, "log: \(agent.log)")
        XCTAssertTrue(eventually { SavedNotificationState(environment: environment, server: "dunst").read() == nil })
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertFalse(try dunst.isPaused(), "an agent with nothing silenced changes nothing at exit")
    }

    func testDisplayRestoreGivesBackWhatAKilledAgentLeftPaused() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "")
        let saved = SavedNotificationState(environment: environment, server: "dunst")
        try saved.write("false")
        try dunst.setPaused(true)
        let restore = try AgentProcess.run(["display", "restore"], environment: environment)
        XCTAssertEqual(restore.status, 0, restore.err)
        XCTAssertTrue(restore.out.contains("gave dunst its own do-not-disturb state back"), restore.out)
        XCTAssertFalse(try dunst.isPaused())
        XCTAssertNil(saved.read())
        let again = try AgentProcess.run(["display", "restore"], environment: environment)
        XCTAssertFalse(again.out.contains("do-not-disturb"), "nothing left to give back: \(again.out)")
    }

    func testDoctorSaysHowDunstIsSilencedAndWhatSocialDoes() throws {
        let doctor = try AgentProcess.run(["doctor"], environment: try AgentProcess.freshEnvironment(on: desk, config: ""))
        let line = doctor.out.split(separator: "\n").first { $0.hasPrefix("ok   do-not-disturb  dunst ") }
        XCTAssertTrue(line?.hasSuffix(", do-not-disturb through `paused`; Social's exceptions cannot pass there: "
                                      + "Social leaves notifications on") == true, doctor.out)
    }
}
