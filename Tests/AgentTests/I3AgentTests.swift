import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The agent as a user runs it on i3 4.22 (X11, which ignores iconify): focus and minimize
/// through the i3 IPC, the disabled app in i3's scratchpad. The sway harness lends its session
/// bus and mako.
final class I3AgentTests: XCTestCase {
    func testOnI3ADisabledAppGoesToTheScratchpadAndShowingItDisablesItAgain() throws {
        let sway = try SwayHarness.shared()
        let monitor = try BusMonitor(address: sway.busAddress)
        let i3 = try I3Harness()
        defer { i3.stop() }
        var environment = try AgentProcess.freshEnvironment(on: sway, config: """
            [general]
            idle-after = 1h
            [limits]
            stgame = 2s
            """)
        for key in ["SWAYSOCK", "WAYLAND_DISPLAY"] { environment[key] = nil }
        for key in ["DISPLAY", "I3SOCK", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"] { environment[key] = i3.environment[key] }
        let agent = try AgentProcess(environment: environment, desk: sway)
        defer { agent.stop() }
        func status() throws -> StatusSnapshot { try StatusFormat.decode(agent.cli(["status", "--json"]).out) }
        func gameHidden() -> Bool {
            (try? i3.windowStates().first { $0.xClass == "StGame" }?.inScratchpad) == true
        }

        let windows = try TestWindowClient(display: i3.display)
        _ = try windows.openWindow(class: "StWork", title: "w")
        XCTAssertTrue(eventually { (try? status().focused) == AppID("stwork") }, agent.log)
        let backends = try status().backends
        XCTAssertTrue(backends["focus"]?.hasPrefix("i3 IPC") == true, "\(backends)")
        XCTAssertTrue(backends["minimize"]?.hasPrefix("i3 IPC") == true, "\(backends)")

        _ = try windows.openWindow(class: "StGame", title: "g")
        XCTAssertTrue(eventually(5) { gameHidden() }, agent.log)
        XCTAssertEqual(try i3.windowStates().first { $0.xClass == "StWork" }?.inScratchpad, false)

        // Shown again: disabled again, with the offer again.
        func offers() -> Int { monitor.notifyCalls.filter { $0.summary.hasPrefix("Time for a break from") }.count }
        let before = try monitor.waitFor("the offer") { _ in offers() > 0 ? offers() : nil }
        try i3.i3msg(["[class=\"StGame\"]", "scratchpad", "show"])
        _ = try monitor.waitFor("the offer again") { _ in offers() > before ? true : nil }
        XCTAssertTrue(eventually { gameHidden() }, agent.log)
    }
}
