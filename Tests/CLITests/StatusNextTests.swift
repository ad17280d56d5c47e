import Foundation
import Harnesses
@testable import ScreenTimeCLI
import ScreenTimeCore
import XCTest

/// `status --next`: one status at the agent's next change, then exit, for widgets that read a
/// command's output only when it exits (the Plasma applet). Parsed in process; run from the built
/// binary beside a real agent on the harness's desktop.
final class StatusNextTests: XCTestCase {
    func testNextIsParsedWithAnyFormButNotWithFollow() throws {
        let json = try StatusCommand(Arguments(["--json", "--next"]))
        XCTAssertEqual(json.form, .json)
        XCTAssertTrue(json.next)
        XCTAssertFalse(json.follow)
        XCTAssertTrue(json.oneLine, "a document on one line, as when following")
        XCTAssertEqual(try StatusCommand(Arguments(["--next", "--waybar"])).form, .waybar)
        XCTAssertFalse(try StatusCommand(Arguments(["--json"])).next)
        XCTAssertThrowsError(try StatusCommand(Arguments(["--follow", "--next"]))) { error in
            XCTAssertEqual((error as? UsageError)?.message, "choose one of --follow and --next")
        }
        XCTAssertEqual(try StatusCommand(Arguments(["--json", "--next", "--shown", "wind-down"])).shownMode, "wind-down")
        XCTAssertEqual(try StatusCommand(Arguments(["--json", "--next", "--shown="])).shownMode, "")
        XCTAssertNil(try StatusCommand(Arguments(["--json", "--next"])).shownMode)
        XCTAssertThrowsError(try StatusCommand(Arguments(["--json", "--shown", "off"]))) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--shown goes with --next")
        }
    }

    /// An agent that has settled: a just-started one signals its first readings (focus, idle) as
    /// they come, and each is a change `--next` rightly prints. Settled means a second without a
    /// `StatusChanged`, as a bus monitor sees the signals.
    func startSettledAgent(on desk: DesktopHarness) throws -> AgentProcess {
        let monitor = try BusMonitor(address: desk.busAddress, rules: ["type='signal',interface='org.screentime.Agent1',member='StatusChanged'"])
        let agent = try LimitedTestApp.startAgent(on: desk)
        var seen = -1
        let settled = try Wait.poll(timeout: 15, every: 1) {
            try monitor.drain()
            defer { seen = monitor.messages.count }
            return monitor.messages.count == seen
        }
        XCTAssertTrue(settled, "the agent kept signalling changes: \(agent.log)")
        return agent
    }

    func testNextWaitsForTheChangeThenPrintsItAndExits() throws {
        let desk = try DesktopHarness.shared()
        let agent = try startSettledAgent(on: desk)
        let waiting = try FollowedOutput(["status", "--json", "--next"], environment: agent.environment)
        XCTAssertNil(waiting.nextLine(within: 1), "nothing before a change")
        XCTAssertTrue(waiting.isRunning)
        let before = try waiting.wakeUps()
        usleep(500_000)
        XCTAssertLessThanOrEqual(try waiting.wakeUps() - before, 1, "asleep in poll on the bus: no timer wakes it")

        let mode = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(mode.status, 0, mode.err)
        let line = try XCTUnwrap(waiting.nextLine(within: 3), "a line at the change")
        XCTAssertEqual(try StatusFormat.decode(line).mode, "productivity", "the whole `status --json` document, on one line")
        XCTAssertNil(waiting.nextLine(within: 3), "one line, then the end")
        waiting.process.waitUntilExit()
        XCTAssertEqual(waiting.process.terminationStatus, 0)
    }

    /// A change while the caller was not waiting (between two runs) is printed at once.
    func testNextPrintsAtOnceWhenTheModeIsNotTheOneShown() throws {
        let desk = try DesktopHarness.shared()
        let agent = try startSettledAgent(on: desk)
        let same = try FollowedOutput(["status", "--json", "--next", "--shown", "standard"], environment: agent.environment)
        XCTAssertNil(same.nextLine(within: 1), "the mode shown: nothing to say until a change")
        for shown in ["off", "productivity", ""] {
            let result = try agent.cli(["status", "--json", "--next", "--shown", shown])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(try StatusFormat.decode(result.out).mode, "standard", "at once, shown “\(shown)”")
        }
        XCTAssertTrue(same.isRunning)

        agent.stop()
        XCTAssertEqual(same.nextLine(within: 5), #"{"running":false}"#)
        let off = try AgentProcess.run(["status", "--json", "--next", "--shown", "standard"], environment: agent.environment)
        XCTAssertEqual(off.out, "{\"running\":false}\n", "no agent, where the caller shows one: at once")
    }

    func testNextWaitsForAnAgentAndSaysWhenItIsGone() throws {
        let desk = try DesktopHarness.shared()
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let forAgent = try FollowedOutput(["status", "--json", "--next"], environment: environment)
        XCTAssertNil(forAgent.nextLine(within: 1), "no agent yet: nothing changed")
        let agent = try AgentProcess(environment: environment, desk: desk)
        let started = try XCTUnwrap(forAgent.nextLine(within: 5), "a line once the agent answers")
        XCTAssertEqual(try StatusFormat.decode(started).mode, "standard")
        forAgent.process.waitUntilExit()
        XCTAssertEqual(forAgent.process.terminationStatus, 0)

        let forExit = try FollowedOutput(["status", "--json", "--next"], environment: environment)
        XCTAssertNil(forExit.nextLine(within: 0.5))
        agent.stop()
        try assertGolden("status-next-not-running.json", (forExit.nextLine(within: 5) ?? "nothing") + "\n")
        forExit.process.waitUntilExit()
        XCTAssertEqual(forExit.process.terminationStatus, 0)
    }

    func testNextWithoutASessionBusExits69() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try AgentProcess.run(["status", "--json", "--next"], environment: [
            "HOME": home.path, "TZ": Self.middayZone, "PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"])
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.out, "")
    }
}
