import Foundation
import Harnesses
import ScreenTimeCore
import XCTest

/// End-to-end scenarios written once against `ScenarioDesktop` and run by each desktop's tests
/// (X11, sway, GNOME Shell, KWin), the agent as a user runs it there.
enum DesktopScenarios {
    /// Productivity disables the focused content app at once, with a notification offering the way
    /// through, and leaves an allowed app alone.
    static func aModeThatDoesNotAllowTheFocusedAppDisablesItAtOnce<Desktop: ScenarioDesktop>(
        on desktop: Desktop, file: StaticString = #filePath, line: UInt = #line) throws {
        let monitor = try BusMonitor(address: desktop.busAddress)
        let environment = try AgentProcess.freshEnvironment(on: desktop, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            breaks = off
            """)
        try AgentProcess.installDesktopEntry("stcode", "[Desktop Entry]\nType=Application\nName=Code Editor\nExec=stcode\nCategories=Development;\n",
                                             environment: environment)
        try AgentProcess.installDesktopEntry("stvideo", "[Desktop Entry]\nType=Application\nName=Video Player\nExec=stvideo\nCategories=AudioVideo;Video;\n",
                                             environment: environment)
        let agent = try AgentProcess(environment: environment, desk: desktop)
        defer { agent.stop() }
        let code = try desktop.openAppWindow("stcode")
        defer { desktop.close(code) }
        let video = try desktop.openAppWindow("stvideo")
        defer { desktop.close(video) }
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stvideo") }, agent.log, file: file, line: line)

        let switched = try agent.cli(["mode", "productivity"])
        XCTAssertEqual(switched.status, 0, switched.err, file: file, line: line)
        XCTAssertTrue(eventually { desktop.isMinimized(video) }, "the focused content app is disabled at the switch", file: file, line: line)
        _ = try monitor.waitForNotify { $0.actions.first == "continue" && $0.summary.contains("Video Player") }

        try desktop.focus(code)
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("stcode") }, agent.log, file: file, line: line)
        XCTAssertFalse(desktop.isMinimized(code), "an allowed app stays", file: file, line: line)
        XCTAssertEqual(agent.stop(), 0, agent.log, file: file, line: line)
    }
}
