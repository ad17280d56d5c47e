import Foundation
import ScreenTimeCore
import TestSupport
import XCTest

/// App identity and safety against the machine's real desktop entries and real programs: Debian's
/// xterm entry, a GTK 4 app and its dialog, an entry installed while the agent runs, pinentry.
final class AppIdentityDesktopTests: XCTestCase {
    static let productivity = """
        [general]
        idle-after = 1h
        [modes]
        automatic = off
        breaks = off
        """

    private func focused(_ agent: AgentProcess, is app: AppID, timeout: TimeInterval = 5) -> Bool {
        eventually(timeout) { (try? agent.status().focused) == app }
    }

    func testXtermIsNamedByItsClassNotItsInstance() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"),
                                     desk: desk)
        let plain = try RealApp("xterm", ["-e", "sleep", "60"], on: desk)
        let notes = try RealApp("xterm", ["-class", "Notes", "-e", "sleep", "60"], on: desk)

        windows.activate(try plain.window(in: windows))
        XCTAssertTrue(focused(agent, is: "debian-xterm"), "Debian's entry (StartupWMClass=XTerm) names plain xterm: \(String(describing: try? agent.status().focused))")
        windows.activate(try notes.window(in: windows))
        XCTAssertTrue(focused(agent, is: "notes"), "instance `xterm` is not class `XTerm`: \(String(describing: try? agent.status().focused))")
    }

    func testGTK4AppIsNamedByItsApplicationIDAndItsDialogIsItsToo() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"),
                                     desk: desk)
        let factory = try RealApp("gtk4-widget-factory", on: desk)
        let main = try factory.window(in: windows)
        windows.activate(main)
        XCTAssertTrue(focused(agent, is: "org.gtk.WidgetFactory4"), "\(String(describing: try? agent.status().focused))")

        // The About dialog (no _GTK_APPLICATION_ID of its own, WM_CLASS gtk4-widget-factory), opened
        // through the app's own action on the bus.
        let bus = try XCTUnwrap(windows.text(main, "_GTK_UNIQUE_BUS_NAME"))
        let path = try XCTUnwrap(windows.text(main, "_GTK_APPLICATION_OBJECT_PATH"))
        try desk.run("gdbus", ["call", "--session", "--dest", bus, "--object-path", path,
                               "--method", "org.gtk.Actions.Activate", "about", "[]", "{}"])
        let about = try factory.window(in: windows) { windows.transientFor($0) == main }
        windows.activate(about)
        XCTAssertTrue(eventually { windows.activeWindow() == about.xid })
        usleep(300_000)
        XCTAssertEqual(try agent.status().focused, "org.gtk.WidgetFactory4", "the dialog is its app's")
        XCTAssertFalse(try agent.status().apps.contains { $0.id == "gtk4-widget-factory" })
    }

    func testAnEntryInstalledWhileTheAgentRunsCountsAtOnce() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.productivity)
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)

        // Installed into the user's own folder, which did not exist when the agent started.
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        XCTAssertFalse(FileManager.default.fileExists(atPath: applications.path))
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Dev Tool\nExec=devtool\nStartupWMClass=Devtool-bin\nCategories=Development;\n"
            .write(to: applications.appendingPathComponent("org.example.Devtool.desktop"), atomically: true, encoding: .utf8)
        usleep(200_000)
        let tool = try windows.openWindow(class: "Devtool-bin", title: "project")
        defer { windows.close(tool) }
        windows.activate(tool)
        XCTAssertTrue(focused(agent, is: "org.example.Devtool"), "\(String(describing: try? agent.status().focused))")
        usleep(500_000)
        XCTAssertEqual(windows.wmState(tool), 1, "a Development app stays in Productivity")
    }

    func testTheFocusedWindowIsNamedAgainWhenItsEntryArrives() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let agent = try AgentProcess(environment: environment, desk: desk)
        let tool = try windows.openWindow(class: "Sketcher-bin", title: "drawing")
        defer { windows.close(tool) }
        windows.activate(tool)
        XCTAssertTrue(focused(agent, is: "sketcher-bin"))

        try "[Desktop Entry]\nType=Application\nName=Sketcher\nExec=sketcher\nStartupWMClass=Sketcher-bin\nCategories=Graphics;\n"
            .write(to: try AgentProcess.applicationsFolder(environment).appendingPathComponent("org.example.Sketcher.desktop"),
                   atomically: true, encoding: .utf8)
        XCTAssertTrue(focused(agent, is: "org.example.Sketcher"), "\(String(describing: try? agent.status().focused))")
    }

    func testPinentryIsNeverMinimizedInProductivity() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: Self.productivity), desk: desk)
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)

        let pinentry = try RealApp("pinentry-gtk-2", on: desk)
        pinentry.send("SETDESC Unlock your key")
        pinentry.send("GETPIN")
        let prompt = try pinentry.window(in: windows)
        windows.activate(prompt)
        XCTAssertTrue(eventually { (try? agent.status().focused)?.rawValue.hasPrefix("pinentry") == true },
                      "\(String(describing: try? agent.status().focused))")
        usleep(700_000)
        XCTAssertEqual(windows.wmState(prompt), 1, "a password prompt is never minimized")
        let id = try XCTUnwrap(agent.status().focused)
        XCTAssertEqual(try agent.status().apps.first { $0.id == id }?.state, "essential")
        XCTAssertTrue(try agent.cli(["essential", "list"]).out.contains("pinentry*  (built in: password prompt)"))
    }
}
