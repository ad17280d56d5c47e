import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The built agent on a real KWin 5.27, granted `org_kde_plasma_window_management` by a desktop
/// entry naming its executable, as install.sh does: focus and minimize then come from KWin's
/// window list. The binaries run from a granted copy, so the grant does not reach other tests' agents.
final class PlasmaWindowsAgentTests: XCTestCase {
    private var kwin: KWinHarness!

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
    }

    func testFocusAndMinimizeThroughKWinsWindowList() throws {
        let folder = try kwin.grantedAgentBinaries([DesktopSelection.plasmaWindowsGlobal])
        let previous = ProcessInfo.processInfo.environment["SCREENTIME_BIN_DIR"]
        setenv("SCREENTIME_BIN_DIR", folder.path, 1)
        defer { if let previous { setenv("SCREENTIME_BIN_DIR", previous, 1) } else { unsetenv("SCREENTIME_BIN_DIR") } }

        let environment = try AgentProcess.freshEnvironment(on: kwin, config: "[general]\nidle-after = 1h\n[limits]\nflower = 2s\n")
        try AgentProcess.installDesktopEntry("flower", """
            [Desktop Entry]
            Type=Application
            Name=Flower
            Exec=weston-flower
            StartupWMClass=org.freedesktop.weston.flower
            """, environment: environment)
        let dots = try kwin.openWindow("weston-clickdot")
        let flower = try kwin.openWindow("weston-flower")
        defer {
            try? kwin.closeWindow(flower)
            try? kwin.closeWindow(dots)
        }
        let agent = try AgentProcess(environment: environment, desk: kwin)
        defer { agent.stop() }
        let backends = try agent.status().backends
        XCTAssertTrue(backends["focus"]?.hasPrefix("KDE plasma window management") == true, "\(backends)")
        XCTAssertTrue(backends["minimize"]?.hasPrefix("KDE plasma window management") == true, "\(backends)")

        try kwin.activate(pid: flower.processIdentifier)
        XCTAssertTrue(eventually { (try? agent.status().focused) == "flower" }, agent.log)
        var windows: [KWinHarness.Window] = []
        XCTAssertTrue(eventually(6) {
            windows = (try? self.kwin.windows()) ?? []
            return windows.first { $0.pid == flower.processIdentifier }?.minimized == true
        }, "flower not minimized at its limit: \(windows)\n\(agent.log)")
        XCTAssertEqual(windows.first { $0.pid == dots.processIdentifier }?.minimized, false, "other apps are left alone")
    }
}
