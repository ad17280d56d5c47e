import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest

/// The agent as a user runs it, on a real X server, window manager, session bus and dunst.
final class AgentDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!
    var monitor: BusMonitor!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
        monitor = try BusMonitor(address: desk.busAddress)
    }

    /// XCTest keeps every test case object to the end of the run: the client is let go here, so
    /// its windows go with its connection instead of staying focused for the tests after it.
    override func tearDown() {
        windows = nil
        monitor = nil
    }

    static let shortLimits = """
        [general]
        idle-after = 1h
        countdown = 4s;2s
        continue-for = 3s
        [limits]
        notes = 6s
        quiet = 1s
        tom&jerry<b> = 1s
        """

    func startAgent(config: String = AgentDesktopTests.shortLimits) throws -> AgentProcess {
        try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
    }

    func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    /// A title rule's app over its limit is minimized in its own window only, also once renamed to
    /// match (DesktopScenarios).
    func testTitleRuleAppIsMinimizedInItsOwnWindowOnly() throws {
        try DesktopScenarios.aTitleRuleDisablesOnlyTheWindowItMatches(on: desk)
    }

    /// A title rule added while its window is focused applies at once: the title, not read while
    /// no rule needed it, is read when the config changes.
    func testTitleRuleAddedWhileItsWindowIsFocusedAppliesAtOnce() throws {
        let config = """
            [general]
            idle-after = 1h
            [limits]
            stclip = 1s
            """
        let agent = try startAgent(config: config)
        let video = try windows.openWindow(class: "StPlayer", title: "Clip of the day")
        windows.activate(video)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID("stplayer") })
        try (config + "\n[rules]\nstclip = stplayer:Clip\n").write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { self.windows.wmState(video) == 3 }, "the clip is minimized without a focus switch")
        agent.stop()
        windows.close(video)
    }

    /// The countdown, the disable, the app brought back and "Continue for 3 s" chosen in dunst's own
    /// menu (DesktopScenarios); then the notification's icon and what the report kept.
    func testCountdownDisableReopenAndContinueThroughTheNotification() throws {
        let run = try DesktopScenarios.countdownDisableReopenAndContinue(on: desk)
        XCTAssertEqual(run.first.icon, "stnotes")
        let report = try run.agent.cli(["report", "--json"])
        let decoded = try JSONDecoder().decode(UsageReport.self, from: Data(report.out.utf8))
        XCTAssertEqual(try XCTUnwrap(decoded.apps.first { $0.id == "stnotes" }).seconds, 9, accuracy: 1)
        XCTAssertEqual(decoded.bypasses.map(\.app), ["stnotes"])
        XCTAssertEqual(decoded.limitsReached.map(\.app), ["stnotes", "stnotes"])
    }

    func testSigkillLosesAtMostTwoSeconds() throws {
        let agent = try startAgent()
        let reader = try windows.openWindow(class: "Reader", title: "book")
        windows.activate(reader)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == "reader" })
        let start = Date()
        usleep(3_500_000)
        agent.stop(signal: SIGKILL)
        let counted = Date().timeIntervalSince(start)
        let store = try UsageDatabase(path: agent.databasePath, readOnly: true)
        let recorded = try store.usageByApp(from: start.addingTimeInterval(-60), to: Date())["reader"] ?? 0
        XCTAssertGreaterThanOrEqual(recorded, counted - 2.2)
        XCTAssertLessThanOrEqual(recorded, counted + 0.5)
    }

    func testASecondAgentRefusesToStart() throws {
        let agent = try startAgent()
        let second = try agent.cli(["agent"])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.err.contains("another screentime agent is already running"), second.err)
    }

    func testBrokenConfigIsReportedWithItsLineAndTheLastGoodOneStays() throws {
        let agent = try startAgent()
        try "[limits]\nnotes = 6x\n".write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { (try? self.status(agent).configProblem)??.contains("config:2:") == true })
        XCTAssertTrue(try agent.cli(["status"]).out.contains("`6x` is not a duration"))
        let limits = try agent.cli(["limit", "list"])
        XCTAssertEqual(limits.status, 1, "the CLI names the broken line too")
        XCTAssertTrue(limits.err.contains("config:2:"), limits.err)

        let notes = try windows.openWindow(class: "Notes", title: "todo")
        windows.activate(notes)
        XCTAssertTrue(eventually(10) { self.windows.wmState(notes) == 3 }, "the last good limit (6 s) still applies")

        try Self.shortLimits.write(to: agent.configPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { (try? self.status(agent).configProblem) == .some(nil) })
    }

    func testUntrustedAppNamesAreEscapedForMarkup() throws {
        let agent = try startAgent()
        let window = try windows.openWindow(class: "Tom&Jerry<b>", title: "<i>title</i>")
        windows.activate(window)
        XCTAssertTrue(eventually { self.windows.wmState(window) == 3 }, agent.log + "\(try! self.status(agent))")
        let disabled = try monitor.waitForNotify(timeout: 5) { $0.summary.hasPrefix("Time for a break") }
        XCTAssertTrue(disabled.body.contains("Tom&amp;Jerry&lt;b&gt;"), disabled.body)
        XCTAssertFalse(disabled.body.contains("<b>"))
    }

    func testWithoutANotificationServerAppsAreStillDisabledAndTheAgentCarriesOn() throws {
        let agent = try startAgent()
        desk.stopNotificationServer()
        defer { if !desk.busNameHasOwner("org.freedesktop.Notifications") { try? desk.startNotificationServer() } }
        let quiet = try windows.openWindow(class: "Quiet", title: "q")
        windows.activate(quiet)
        XCTAssertTrue(eventually { self.windows.wmState(quiet) == 3 })
        XCTAssertTrue(agent.process.isRunning)
        try desk.startNotificationServer()
        XCTAssertEqual(try agent.cli(["status"]).status, 0)
    }

    /// Idle time is not counted, and the pointer moved by xdotool counts as a user's input (DesktopScenarios).
    func testIdleTimeIsNotCounted() throws {
        var moves = 0
        try DesktopScenarios.idleTimeIsNotCounted(on: desk, provider: "X11 XSync IDLETIME alarms") {
            moves += 1
            try self.desk.run("xdotool", ["mousemove", "\(10 + moves % 2)", "10"])
        }
    }
}
