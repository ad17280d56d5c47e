import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The built agent, run as a user would, on a real headless sway 1.7, with the providers of the
/// generic Wayland protocols: `org_kde_kwin_idle` idle, wlr gamma control, and wlr foreign
/// toplevel focus where no i3 IPC is offered (as on labwc or river).
final class WaylandAgentDesktopTests: XCTestCase {
    private var sway: SwayHarness!
    private var opened: [SwayHarness.Window] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
    }

    override func tearDown() {
        opened.forEach(sway.close)
        opened = []
    }

    private func open(_ appID: String) throws -> SwayHarness.Window {
        let window = try sway.openWindow(appID: appID)
        opened.append(window)
        return window
    }

    private func startAgent(config: String = "[general]\nidle-after = 1h\n", withoutI3IPC: Bool = false) throws -> AgentProcess {
        var environment = try AgentProcess.freshEnvironment(on: sway, config: config)
        if withoutI3IPC {
            environment["SWAYSOCK"] = nil
            environment["I3SOCK"] = nil
        }
        let agent = try AgentProcess(environment: environment, desk: sway)
        addTeardownBlock { agent.stop() }
        return agent
    }

    func testIdleAndTheFilterComeFromTheCompositorsGlobals() throws {
        let agent = try startAgent()
        let backends = try agent.status().backends
        XCTAssertTrue(backends["idle"]?.hasPrefix("Wayland idle (org_kde_kwin_idle)") == true, "\(backends)")
        XCTAssertTrue(backends["screen filter"]?.hasPrefix("wlr gamma control; shows warm tint only") == true, "\(backends)")
        let doctor = try agent.cli(["doctor"])
        for expected in ["Wayland idle (org_kde_kwin_idle)", "the compositor offers org_kde_kwin_idle",
                         "wlr gamma control", "the compositor offers zwlr_gamma_control_manager_v1"] {
            XCTAssertTrue(doctor.out.contains(expected), "doctor does not say \(expected):\n\(doctor.out)")
        }
    }

    /// Idle time is not counted, with focus from wlr foreign toplevel (no i3 IPC); a move of
    /// sway's cursor is the user's input (DesktopScenarios).
    func testIdleTimeIsNotCounted() throws {
        try DesktopScenarios.idleTimeIsNotCounted(on: sway, provider: "Wayland idle (org_kde_kwin_idle)", userInput: {
            try self.sway.swaymsg(["seat", "seat0", "cursor", "move", "2", "2"])
        }, agentEnvironment: { environment in
            environment["SWAYSOCK"] = nil
            environment["I3SOCK"] = nil
        })
    }

    func testWithoutI3IPCFocusComesFromForeignToplevel() throws {
        let first = try open("st-wl-first")
        let agent = try startAgent(withoutI3IPC: true)
        let backends = try agent.status().backends
        XCTAssertTrue(backends["focus"]?.hasPrefix("wlr foreign toplevel") == true, "\(backends)")
        XCTAssertEqual(try agent.status().focused, "st-wl-first")

        _ = try open("st-wl-second")
        XCTAssertTrue(eventually { (try? agent.status().focused) == "st-wl-second" },
                      "\(String(describing: try? agent.status().focused))")
        try sway.focus(first)
        XCTAssertTrue(eventually { (try? agent.status().focused) == "st-wl-first" },
                      "\(String(describing: try? agent.status().focused))")
        XCTAssertTrue(eventually { agent.isCounting("st-wl-first") })
    }

    /// Headless sway answers `failed` to gamma control: the agent says so in its log and carries on.
    func testARefusedGammaIsLoggedAndTheAgentCarriesOn() throws {
        let agent = try startAgent()
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { agent.log.contains("refused its gamma") }, agent.log)
        XCTAssertTrue(agent.process.isRunning)
        XCTAssertEqual(try agent.cli(["status"]).status, 0)
    }

    /// The compositor going away is an error on the Wayland connection: the agent stops counting
    /// and looks for the desktop again instead of exiting.
    func testTheCompositorGoingAwayStopsCountingAndTheAgentStays() throws {
        let own = try SwayHarness()
        defer { own.stop() }
        var environment = try AgentProcess.freshEnvironment(on: own, config: "[general]\nidle-after = 1h\n")
        environment["SWAYSOCK"] = nil
        environment["I3SOCK"] = nil
        _ = try own.openWindow(appID: "st-wl-gone")
        let agent = try AgentProcess(environment: environment, desk: own)
        defer { agent.stop() }
        XCTAssertTrue(eventually { (try? agent.status().focused) == "st-wl-gone" }, agent.log)

        own.stopCompositor()
        XCTAssertTrue(eventually { agent.log.contains("lost the desktop") }, agent.log)
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID?.none }, "still counting without a compositor")
        XCTAssertTrue(agent.process.isRunning)
        XCTAssertEqual(try agent.cli(["status"]).status, 0)
    }
}
