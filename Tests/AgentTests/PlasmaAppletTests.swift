import Foundation
import Harnesses
import ScreenTimeCore
import SessionBus
import XCTest

/// The Plasma applet (desktop/plasma), installed as `install.sh` installs it and loaded by Debian's
/// `plasmoidviewer` on the harness's X desktop, beside a real agent on the harness's bus: what it
/// shows is read back from its test log, its buttons are clicked with the pointer, and the agent's
/// mode changes as the `screentime` command of the same name changes it.
final class PlasmaAppletTests: XCTestCase {
    var desk: DesktopHarness!
    /// plasmoidviewer stands in for plasmashell, which is built in as essential: never minimized by a mode.
    static let config = "[general]\nidle-after = 1h\n[exemptions]\nessential = plasmoidviewer\n"

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    /// Plasma 6 is not on Debian 12: its package is made by install.sh from the Plasma 5 one that
    /// the tests run (plasma6/port.sed), and checked here as far as this machine can: Plasma 6's
    /// names in place of Plasma 5's, and every QML file of both packages parsed by qmllint.
    func testThePlasma6PackageIsThePlasma5OnePortedAndBothParse() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("plasma-packages-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let script = GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/plasma/install.sh").path
        for version in ["5", "6"] {
            let install = Process()
            install.executableURL = URL(fileURLWithPath: "/bin/sh")
            install.arguments = [script, "/usr/bin", "--into", root.appendingPathComponent(version).path]
            install.environment = ["PLASMA": version, "PATH": "/usr/bin:/bin"]
            let installed = try install.finishedOutput()
            XCTAssertEqual(installed.status, 0, installed.err)
        }
        let package6 = root.appendingPathComponent("6/org.screentime.status")
        let main6 = try String(contentsOf: package6.appendingPathComponent("contents/ui/main.qml"), encoding: .utf8)
        for plasma6 in ["\nPlasmoidItem {", "import org.kde.plasma.plasma5support as Plasma5Support\n", "Plasma5Support.DataSource {",
                        "    compactRepresentation: CompactView {", "onActivated: root.expanded = !root.expanded", "import QtQuick\n"] {
            XCTAssertTrue(main6.contains(plasma6), "Plasma 6's main.qml lacks \(plasma6)")
        }
        for plasma5 in ["Plasmoid.compactRepresentation", "Plasmoid.expanded", "PlasmaCore.DataSource", " 2.0\n", " 2.15\n", "\nItem {"] {
            XCTAssertFalse(main6.contains(plasma5), "Plasma 6's main.qml still has Plasma 5's \(plasma5)")
        }
        let metadata = try String(contentsOf: package6.appendingPathComponent("metadata.json"), encoding: .utf8)
        XCTAssertTrue(metadata.contains("\"X-Plasma-API-Minimum-Version\": \"6.0\""), metadata)
        for version in ["5", "6"] {
            let ui = root.appendingPathComponent("\(version)/org.screentime.status/contents/ui")
            let files = try FileManager.default.contentsOfDirectory(atPath: ui.path).filter { $0.hasSuffix(".qml") }.sorted()
            XCTAssertEqual(files, ["CompactView.qml", "FullView.qml", "main.qml"])
            let lint = Process()
            lint.executableURL = URL(fileURLWithPath: try DesktopHarness.which("qmllint"))
            lint.arguments = files.map { ui.appendingPathComponent($0).path }
            let linted = try lint.finishedOutput()
            XCTAssertEqual(linted.status, 0, "Plasma \(version): \(linted.out)\(linted.err)")
        }
    }

    func testTheAppletShowsTheModeAndItsButtonsDoWhatTheCommandsDo() throws {
        let agent = try LimitedTestApp.startAgent(on: desk, config: Self.config)
        // The agent's methods as called on the bus: each button's must be its command's.
        let calls = try BusMonitor(address: desk.busAddress, rules: ["type='method_call',interface='\(AgentInterface.interface)'"])
        func waitForCall(_ member: String, _ arguments: [BusValue]) throws {
            _ = try calls.waitFor("\(member)\(arguments)") { monitor in
                monitor.messages.first { $0.member == member && $0.arguments == arguments }
            }
        }
        let viewer = try PlasmoidViewer(environment: agent.environment)
        let standard = try viewer.shown { $0.hasPrefix("running | Standard") }
        XCTAssertTrue(standard.contains("Today: "), "today's total: \(standard)")

        // Productivity's switch is `screentime mode productivity`: its method, and its answer's first line.
        var buttons = try viewer.buttons { $0["productivity"] != nil && $0["social"] != nil && $0["report"] != nil }
        XCTAssertNil(buttons["break"], "no break outside Productivity")
        try viewer.click(buttons["productivity"]!)
        try waitForCall(AgentInterface.Method.leaveMode, [.string("productivity"), .bool(false)])
        XCTAssertTrue(try eventually(5) { try agent.status().mode == "productivity" }, agent.log)
        let productivity = try viewer.shown { $0.hasPrefix("running | Productivity") && $0.contains("message: ") }
        let command = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(command.status, 0, command.err)
        XCTAssertTrue(productivity.hasSuffix("message: " + command.out.split(separator: "\n")[0]), productivity)
        XCTAssertTrue(productivity.contains("Next break at "), productivity)

        // A break now, as `screentime break`.
        buttons = try viewer.buttons { $0["break"] != nil }
        try viewer.click(buttons["break"]!)
        try waitForCall(AgentInterface.Method.break, [])
        XCTAssertTrue(try eventually(5) { try agent.status().breakSecondsLeft != nil }, "a break, as `screentime break` starts")
        _ = try viewer.shown { $0.contains("On a break until ") }

        // Off: `screentime mode standard`, as GNOME's indicator does (a scheduled mode asks first).
        buttons = try viewer.buttons { $0["productivity"] != nil && $0["break"] == nil }
        try viewer.click(buttons["productivity"]!)
        try waitForCall(AgentInterface.Method.leaveMode, [.string("standard"), .bool(false)])
        XCTAssertTrue(try eventually(5) { try agent.status().mode == "standard" }, agent.log)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }

        // Wind Down: the analytics give way to "Go to bed" and "Stay up".
        XCTAssertEqual(try agent.cli(["mode", "wind-down"]).status, 0)
        let windDown = try viewer.shown { $0.hasPrefix("running | Wind Down") }
        XCTAssertFalse(windDown.contains("Today: "), "no analytics in Wind Down: \(windDown)")
        buttons = try viewer.buttons { $0["bedtime"] != nil && $0["stay-up"] != nil && $0["break"] == nil }
        try viewer.click(buttons["bedtime"]!)
        try waitForCall(AgentInterface.Method.bedtime, [])
        _ = try viewer.shown { $0.contains("message: Good night.") }

        // Sleep: "Stay up" and "Start the day", no analytics either.
        XCTAssertEqual(try agent.cli(["mode", "sleep"]).status, 0)
        let sleep = try viewer.shown { $0.hasPrefix("running | Sleep") }
        XCTAssertFalse(sleep.contains("Today: "), sleep)
        buttons = try viewer.buttons { $0["start-day"] != nil && $0["stay-up"] != nil && $0["bedtime"] == nil }
        try viewer.click(buttons["start-day"]!)
        try waitForCall(AgentInterface.Method.startDay, [])
        _ = try viewer.shown { $0.contains("message: Good morning.") }
    }

    /// Every control is reached with Tab and pressed with Space, as a keyboard user would.
    func testTheButtonsAreReachedAndPressedWithTheKeyboard() throws {
        let agent = try LimitedTestApp.startAgent(on: desk, config: Self.config)
        let viewer = try PlasmoidViewer(environment: agent.environment)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }
        _ = try viewer.buttons { $0["social"] != nil }
        try viewer.tab(to: "social")
        try viewer.press("space")
        XCTAssertTrue(try eventually(5) { try agent.status().mode == "social" }, "Space on Social's switch, as `screentime mode social`")
        _ = try viewer.shown { $0.hasPrefix("running | Social") }
        try viewer.tab(to: "report")
    }

    /// The applet in a panel, showing today's total, then the limited app (20 minutes a day) in
    /// front; `general` goes into the config's [general]. The agent and the window client live as
    /// long as the caller keeps them.
    func panelWithTheLimitedAppInFront(general: String = "") throws -> (AgentProcess, PlasmoidViewer, TestWindowClient) {
        let agent = try LimitedTestApp.startAgent(on: desk, config: "[general]\n\(general)" + Self.config + "[limits]\n\(LimitedTestApp.id) = 20m\n")
        let windows = try TestWindowClient(display: desk.display)
        let viewer = try PlasmoidViewer(environment: agent.environment, in: .panel)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }
        // The panel's own label: today's total while no limit is near.
        _ = try viewer.logged("compact: ", within: 10) { $0 == "< 1 min" }
        try viewer.waitForWindow()
        usleep(300_000) // the window manager's focus on the new window comes first
        _ = try LimitedTestApp.focus(agent, windows: windows)
        return (agent, viewer, windows)
    }

    func testThePanelShowsTheTotalOrTheFocusedAppsLimitWhenNear() throws {
        let (agent, viewer, windows) = try panelWithTheLimitedAppInFront()
        defer { _ = (agent, windows) }
        // 20 minutes left of the app's limit: under the countdown's 30, so its clock time shows.
        let near = try viewer.logged("compact: ", within: 10) { $0.hasPrefix("\(LimitedTestApp.name) until ") }
        XCTAssertNotNil(near.range(of: #"until [0-9]{1,2}:[0-9]{2}$"#, options: .regularExpression), near)
    }

    /// Near is the user's countdown: with `countdown = 10m;1m` a limit 20 minutes away leaves the
    /// total in the panel; one 8 minutes away shows its clock time.
    func testThePanelShowsTheLimitFromTheUsersFirstCountdownMark() throws {
        let (agent, viewer, windows) = try panelWithTheLimitedAppInFront(general: "countdown = 10m;1m\n")
        defer { _ = windows }
        XCTAssertThrowsError(try viewer.logged("compact: ", within: 2) { $0.contains(" until ") },
                             "20 min is not near with a 10 min countdown")
        let lowered = try agent.cli(["limit", "set", LimitedTestApp.id, "8m"])
        XCTAssertEqual(lowered.status, 0, lowered.err)
        let near = try viewer.logged("compact: ", within: 10) { $0.hasPrefix("\(LimitedTestApp.name) until ") }
        XCTAssertNotNil(near.range(of: #"until [0-9]{1,2}:[0-9]{2}$"#, options: .regularExpression), near)
    }

    func testTheAppletSaysWhenNoAgentRunsAndFollowsItComingAndGoing() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        let viewer = try PlasmoidViewer(environment: environment)
        let off = try viewer.shown { $0.hasPrefix("not-running") }
        XCTAssertTrue(off.contains("Off"), off)
        let agent = try AgentProcess(environment: environment, desk: desk)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }
        agent.stop()
        _ = try viewer.shown { $0.hasPrefix("not-running") }
        XCTAssertTrue(viewer.process.isRunning)
    }

    /// In a panel, with its popup closed, the applet sleeps between changes too: a change of mode
    /// must not leave the hidden popup's switches animating (their render-thread animators never
    /// run in a hidden window, and Qt's animation timer ticked at 10 ms of CPU a second).
    func testInAPanelTheClosedPopupCostsNothingAfterAChange() throws {
        let agent = try LimitedTestApp.startAgent(on: desk, config: Self.config)
        let viewer = try PlasmoidViewer(environment: agent.environment, in: .panel)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }
        XCTAssertEqual(try agent.cli(["mode", "social"]).status, 0)
        _ = try viewer.shown { $0.hasPrefix("running | Social") }
        let used = viewer.cpuUsed(in: 5)
        print("plasma applet in a panel: plasmoidviewer used \(Int((used * 1000).rounded())) ms of CPU in the 5 s after a mode change")
        XCTAssertLessThan(used, 0.03)
    }

    /// The applet's CPU while nothing changes, and from a mode change (SetMode called on the bus)
    /// to the applet showing it: the figures for the closing note, the latter the median of several.
    func testAModeChangeReachesTheAppletWithinASecond() throws {
        let agent = try LimitedTestApp.startAgent(on: desk, config: Self.config)
        let viewer = try PlasmoidViewer(environment: agent.environment)
        _ = try viewer.shown { $0.hasPrefix("running | Standard") }

        // Between changes the applet waits (its `--next` asleep on the bus): next to no CPU.
        let idle = viewer.cpuUsed(in: 10)
        print("plasma applet: plasmoidviewer used \(Int((idle * 1000).rounded())) ms of CPU in 10 s without a change")
        XCTAssertLessThan(idle, 0.1)

        var delays: [Double] = []
        for (mode, name) in [("productivity", "Productivity"), ("social", "Social"), ("standard", "Standard"),
                             ("productivity", "Productivity"), ("social", "Social"), ("standard", "Standard"),
                             ("productivity", "Productivity")] {
            // The watcher is waiting again (its `--next` restarted) before the next change.
            usleep(300_000)
            let called = Date()
            XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string(mode)]), [])
            let shown = try viewer.loggedWithTime("shown: ", within: 5) { $0.hasPrefix("running | \(name)") }
            delays.append(max(0, shown.read.timeIntervalSince(called)) * 1000)
        }
        let median = delays.sorted()[delays.count / 2]
        print("plasma applet: a mode change shown \(Int(median.rounded())) ms after SetMode was called (median of \(delays.count): "
              + delays.map { String(Int($0.rounded())) }.joined(separator: ", ") + " ms)")
        XCTAssertLessThan(median, 1000)

    }
}
