import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// App identity and safety against the machine's real desktop entries and real programs: Debian's
/// xterm entry, a GTK 4 app and its dialog, an entry installed while the agent runs, pinentry,
/// real apps of each toolkit launched from their entries, and an app closed before the next opens.
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
        windows.activate(try plain.window(in: windows))
        XCTAssertTrue(focused(agent, is: "debian-xterm"), "Debian's entry (StartupWMClass=XTerm) names plain xterm: \(String(describing: try? agent.status().focused))")

        // Started only now: a window the window manager maps takes the focus, and one mapped
        // after the first was activated took it from plain xterm before the agent was asked.
        let notes = try RealApp("xterm", ["-class", "Notes", "-e", "sleep", "60"], on: desk)
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
        // The window manager's change is queued for the agent before the first call is sent: that
        // call is answered in the same turn as the agent reads it, or after; the second only after.
        _ = try agent.status()
        _ = try agent.status()
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
        // The folder's inotify event is queued before the first call is sent: that call is answered
        // in the same turn as the entries are read again, or after it; the second only after it.
        // (A fixed wait was shorter than reading every installed entry on a loaded machine.)
        _ = try agent.status()
        _ = try agent.status()
        let tool = try windows.openWindow(class: "Devtool-bin", title: "project")
        defer { windows.close(tool) }
        windows.activate(tool)
        XCTAssertTrue(focused(agent, is: "org.example.Devtool"), "\(String(describing: try? agent.status().focused))")
        usleep(500_000) // the thing checked: no minimize follows
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
        usleep(700_000) // the thing checked: no minimize follows
        XCTAssertEqual(windows.wmState(prompt), 1, "a password prompt is never minimized")
        let id = try XCTUnwrap(agent.status().focused)
        XCTAssertEqual(try agent.status().apps.first { $0.id == id }?.state, "essential")
        XCTAssertTrue(try agent.cli(["essential", "list"]).out.contains("pinentry*  (built in: password prompt)"))
    }

    // MARK: - Real apps launched from their entries

    /// Real apps of each toolkit, launched from their entries by GLib's launcher as a menu does,
    /// with no systemd user session (so no launcher scope), each focused in turn: every one is
    /// named as the entry it was launched from. GTK 3 (gucharmap, aisleriot's sol, pavucontrol,
    /// transmission-gtk declare ids their entries lack), GTK 4, Qt 5 / KF5 (kcalc: no id on its
    /// window, only the launcher's environment), terminals with toolkits of their own, Chromium,
    /// and an X11-only app that sets no pid (mupdf).
    func testRealAppsLaunchedFromTheirEntriesAreNamedAsTheirEntry() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        try Self.prepareHermeticApps(environment)
        let agent = try AgentProcess(environment: environment, desk: desk)
        let document = try Self.writeTinyPDF(in: URL(fileURLWithPath: environment["HOME"]!))

        let launches: [(entry: String, arguments: [String])] = [
            ("gucharmap", []), ("sol", []), ("pavucontrol", []), ("transmission-gtk", []),
            ("org.gtk.WidgetFactory4", []), ("org.gtk.Demo4", []), ("org.kde.kcalc", []),
            ("debian-xterm", []), ("lxterminal", []), ("xfce4-terminal", []), ("qterminal", []), ("featherpad", []),
            ("chromium", ["about:blank"]), ("mupdf", [document.path]),
        ]
        var named: [String: String] = [:]
        for launch in launches {
            let app = try LaunchedApp(launch.entry, launch.arguments, environment: environment, windows: windows)
            windows.activate(app.window)
            _ = focused(agent, is: AppID(launch.entry), timeout: 10)
            named[launch.entry] = (try? agent.status().focused)?.rawValue ?? "nothing"
            app.end()
        }
        let wrong = launches.map(\.entry).filter { named[$0] != $0 }
        print("Real apps named as their entry on X11: \(launches.count - wrong.count) of \(launches.count)")
        XCTAssertEqual(wrong, [], wrong.map { "\($0) counted as \(named[$0]!)" }.joined(separator: ", "))
    }

    /// Started from a terminal (no launcher's environment), GTK apps whose declared application id
    /// names no entry are named by their WM_CLASS instance, their entry's id, as GNOME Shell's
    /// WindowTracker does; transmission-gtk's per-launch id is no app of its own.
    func testGTKAppsWhoseDeclaredIDNamesNoEntryAreNamedByTheirWindowClass() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        try Self.prepareHermeticApps(environment)
        let agent = try AgentProcess(environment: environment, desk: desk)
        let session = LaunchedApp.sessionEnvironment(environment)
        for (program, entry, declared) in [("gucharmap", "gucharmap", "org.gnome.Charmap"), ("sol", "sol", "org.gnome.aisleriot"),
                                           ("pavucontrol", "pavucontrol", "org.pulseaudio.pavucontrol"),
                                           ("transmission-gtk", "transmission-gtk", "com.transmissionbt.transmission_")] {
            let app = try RealApp(program, on: desk, environment: session)
            let window = try app.window(in: windows, timeout: 20) { windows.text($0, "_GTK_APPLICATION_ID") != nil }
            XCTAssertTrue(windows.text(window, "_GTK_APPLICATION_ID")?.hasPrefix(declared) == true,
                          "\(program) no longer declares \(declared): the test proves less")
            windows.activate(window)
            XCTAssertTrue(focused(agent, is: AppID(entry), timeout: 10),
                          "\(program) counted as \(String(describing: try? agent.status().focused))")
            app.end()
        }
    }

    /// An app's last window closes (openbox leaves `_NET_ACTIVE_WINDOW` on it), then another app
    /// opens, its windows under the closed one's ids: the closed app stops counting at once and
    /// gains no time, and the new one is named as itself.
    func testAClosedAppGainsNoTimeAndTheNextAppIsNamedRight() throws {
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let agent = try AgentProcess(environment: environment, desk: desk)
        for (closing, next) in [("lxterminal", "xfce4-terminal"), ("featherpad", "qterminal")] {
            let first = try LaunchedApp(closing, environment: environment, windows: windows)
            windows.activate(first.window)
            XCTAssertTrue(focused(agent, is: AppID(closing), timeout: 10), "\(String(describing: try? agent.status().focused))")
            XCTAssertTrue(eventually { (try? agent.usedSeconds(AppID(closing))) ?? 0 >= 1 }, "\(closing) was not counted")

            windows.requestClose(first.window)
            XCTAssertTrue(windows.waitUntil(timeout: 10) { !windows.clientList().contains(first.window.xid) },
                          "\(closing) did not close its window")
            XCTAssertTrue(windows.waitUntil(timeout: 10) { first.pid.map { !LaunchedApp.isRunning($0) } ?? true },
                          "\(closing) did not exit after its last window")
            XCTAssertTrue(eventually { (try? agent.status().focused) == nil },
                          "\(closing) is still counted after it closed: \(String(describing: try? agent.status().focused))")
            let closedAt = try agent.usedSeconds(AppID(closing))

            let second = try LaunchedApp(next, environment: environment, windows: windows)
            print("\(next) after \(closing): window \(second.window) \(second.window == first.window ? "reuses" : "does not reuse") the closed one's id")
            windows.activate(second.window)
            XCTAssertTrue(focused(agent, is: AppID(next), timeout: 10),
                          "\(next) counted as \(String(describing: try? agent.status().focused))")
            XCTAssertTrue(eventually(10) { (try? agent.usedSeconds(AppID(next))) ?? 0 >= 2 }, "\(next) was not counted")
            XCTAssertEqual(try agent.usedSeconds(AppID(closing)), closedAt, accuracy: 0.5, "\(closing) gained time after it closed")
            second.end()
        }
    }

    /// What makes the launched apps hermetic beyond the fresh HOME: Chromium as root needs
    /// `--no-sandbox`, which the user's own copy of its entry adds (same id, `StartupWMClass`
    /// and all), with every request pointed at a proxy that does not exist; transmission-gtk
    /// starts with no peer discovery, port mapping or legal notice. Nothing leaves the machine.
    static func prepareHermeticApps(_ environment: [String: String]) throws {
        let home = URL(fileURLWithPath: environment["HOME"]!)
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let chromium = try String(contentsOfFile: "/usr/share/applications/chromium.desktop", encoding: .utf8)
        let flags = ["--no-sandbox", "--user-data-dir=\(home.appendingPathComponent("chromium").path)", "--no-first-run",
                     "--disable-gpu", "--disable-sync", "--disable-background-networking", "--disable-component-update",
                     "--disable-default-apps", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]
        try chromium.replacingOccurrences(of: "Exec=/usr/bin/chromium", with: "Exec=/usr/bin/chromium " + flags.joined(separator: " "))
            .write(to: applications.appendingPathComponent("chromium.desktop"), atomically: true, encoding: .utf8)

        let transmission = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("transmission")
        try FileManager.default.createDirectory(at: transmission, withIntermediateDirectories: true)
        try """
            {"dht-enabled": false, "lpd-enabled": false, "pex-enabled": false, "utp-enabled": false,
             "port-forwarding-enabled": false, "blocklist-enabled": false, "rpc-enabled": false,
             "bind-address-ipv4": "127.0.0.1", "bind-address-ipv6": "::1", "peer-port": 0,
             "user-has-given-informed-consent": true, "show-notification-area-icon": false}
            """.write(to: transmission.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
    }

    /// A one-page, empty PDF for mupdf to open.
    static func writeTinyPDF(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("page.pdf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
            .write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
