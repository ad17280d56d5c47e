import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// `apps`, `continue`, `config` and `doctor` as a user runs them beside the running agent on the
/// harness's desktop, each judged by what it shows or changes, not by its exit code alone.
final class CLIAgainstAgentTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!
    let app = LimitedTestApp.id

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    func row(_ agent: AgentProcess) throws -> [String]? {
        let result = try agent.cli(["apps"])
        XCTAssertEqual(result.status, 0, result.err)
        return result.out.split(separator: "\n").first { $0.hasPrefix(app + " ") }
            .map { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    func testAppsShowsTheTimeTheAgentCountedWithNameGroupAndLimit() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        XCTAssertNil(try row(agent), "not used yet, not listed")
        _ = try LimitedTestApp.focus(agent, windows: windows)
        var shown: [String]?
        XCTAssertTrue(eventually(8) {
            shown = try? self.row(agent)
            return shown.map { $0.count == 5 && $0[3] != "0 s" } == true
        }, "the counted time reaches `apps`: \(String(describing: shown))")
        XCTAssertEqual(shown?[1], LimitedTestApp.name, "the name from the desktop entry")
        XCTAssertEqual(shown?[2], "content", "the group from the entry's categories")
        XCTAssertEqual(shown?[4], "1h")

        XCTAssertEqual(try agent.cli(["limit", "set", app, "45m"]).status, 0)
        XCTAssertEqual(try row(agent)?[4], "45m")
    }

    func testContinueLetsTheAppBackAndItIsCounted() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let window = try LimitedTestApp.focus(agent, windows: windows)
        let early = try agent.cli(["continue", app])
        XCTAssertEqual(early.status, 1, "nothing to continue while time is left")
        XCTAssertTrue(early.err.contains("is not held back"), early.err)

        XCTAssertEqual(try agent.call(AgentInterface.Method.setLimit, [.string(app), .uint64(1)]), [.strings([])])
        XCTAssertTrue(eventually(5) { self.windows.wmState(window) == 3 }, "minimized at its limit")

        let granted = try agent.cli(["continue", app])
        XCTAssertEqual(granted.status, 0, granted.err)
        XCTAssertTrue(granted.out.hasPrefix("\(app): "), granted.out)
        XCTAssertTrue(eventually { (try? agent.status().apps.first { $0.id == AppID(self.app) }?.continues) == 1 })
        windows.activate(window)
        XCTAssertTrue(eventually { self.windows.wmState(window) == 1 }, "usable again")
        var report = ""
        XCTAssertTrue(eventually(5) {
            report = (try? agent.cli(["report", "today"]).out) ?? ""
            return report.contains("Continues taken: \(LimitedTestApp.name) at ") && report.contains("(+1 h)")
        }, "the report shows the continue and the hour it granted: \(report)")
    }

    func testConfigSetIsAppliedByTheRunningAgentAndABadValueLosesNothing() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        _ = try LimitedTestApp.focus(agent, windows: windows)
        let set = try agent.cli(["config", "set", "limits.\(app)", "45m"])
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(set.out, "limits.\(app) = 45m\n")
        XCTAssertEqual(try agent.cli(["config", "get", "limits.\(app)"]).out, "45m\n")
        XCTAssertTrue(eventually { (try? agent.status().apps.first { $0.id == AppID(self.app) }?.limitSeconds) == 2700 },
                      "the agent reloads the file it was changed")

        let before = try String(contentsOf: agent.configPath, encoding: .utf8)
        let bad = try agent.cli(["config", "set", "general.idle-after", "soon"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("idle-after") && bad.err.contains("soon"), bad.err)
        XCTAssertEqual(try String(contentsOf: agent.configPath, encoding: .utf8), before, "nothing written")
        XCTAssertNil(try agent.status().configProblem)
        XCTAssertEqual(try agent.cli(["config", "path"]).out, agent.configPath.path + "\n")
    }

    func testDoctorSeesTheRunningAgentAndTellsWhetherGrayscaleCanShow() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let fixture = try RandRFixture(displayName: desk.display)
        fixture.deleteCTM()
        let withoutCTM = try agent.cli(["doctor"])
        XCTAssertTrue(withoutCTM.out.split(separator: "\n").contains { $0.hasPrefix("ok ") && $0.contains("agent") && $0.hasSuffix("running") },
                      withoutCTM.out)
        XCTAssertTrue(Self.capabilityLine("focus", in: withoutCTM.out).hasPrefix("ok") && withoutCTM.out.contains("X11 EWMH"), withoutCTM.out)
        XCTAssertTrue(Self.capabilityLine("minimize", in: withoutCTM.out).contains("X11 XIconifyWindow (an X11 session"), withoutCTM.out)
        XCTAssertTrue(Self.capabilityLine("idle", in: withoutCTM.out).contains("XSync"), withoutCTM.out)
        XCTAssertTrue(Self.capabilityLine("screen filter", in: withoutCTM.out).contains("grayscale shown as dimming"), withoutCTM.out)
        XCTAssertTrue(Self.capabilityLine("lock", in: withoutCTM.out).hasPrefix("warn"), "no screen saver service runs here: " + withoutCTM.out)
        let display = try XCTUnwrap(withoutCTM.out.split(separator: "\n").first { $0.contains("display \(fixture.outputName)") })
        XCTAssertTrue(display.hasPrefix("warn"), String(display))
        XCTAssertTrue(display.hasSuffix("grayscale: unavailable on \(fixture.outputName): the driver has no CTM (dimmed to 70 % instead)"),
                      String(display))

        fixture.createCTM()
        defer { fixture.deleteCTM() }
        let withCTM = try agent.cli(["doctor"])
        let shown = try XCTUnwrap(withCTM.out.split(separator: "\n").first { $0.contains("display \(fixture.outputName)") })
        XCTAssertTrue(shown.hasPrefix("ok") && shown.contains("CTM yes, method randr-ctm"), String(shown))
        XCTAssertFalse(shown.contains("unavailable"), String(shown))

        XCTAssertEqual(agent.stop(), 0)
        let stopped = try AgentProcess.run(["doctor"], environment: agent.environment)
        XCTAssertTrue(stopped.out.contains("not running (start it with `screentime agent`)"), stopped.out)
        XCTAssertTrue(Self.capabilityLine("notifications", in: stopped.out).hasPrefix("ok") && stopped.out.contains("dunst"),
                      "the server's answer is waited for: " + stopped.out)
        XCTAssertTrue(Self.capabilityLine("focus", in: stopped.out).contains("X11 EWMH"),
                      "without the agent, doctor starts the providers itself: " + stopped.out)
    }

    /// Doctor's line for a capability: "ok   focus  ...", "warn lock  ...".
    static func capabilityLine(_ capability: String, in doctor: String) -> String {
        doctor.split(separator: "\n").map(String.init).first { $0.dropFirst(5).hasPrefix(capability + " ") } ?? ""
    }
}
