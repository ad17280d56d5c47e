import Foundation

/// A real app started from its desktop entry the way a menu or dock starts it: by GLib's launcher
/// (`gtk-launch ID`), which leaves `GIO_LAUNCHED_DESKTOP_FILE` in the app's environment and
/// exits at once. The app is found by the first new top-level window it opens (not a dialog), and
/// ended when the test lets go of it: by its `_NET_WM_PID`, or by closing its X connection when
/// it sets none. A missing entry or program fails the test, never skips it.
public final class LaunchedApp {
    public let entry: String
    public let window: TestWindow
    /// `_NET_WM_PID` of the window, when the app sets it.
    public let pid: Int32?
    private let windows: TestWindowClient

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Launches `entry` (its desktop id) with `arguments` (files or URIs the entry's Exec takes),
    /// in `environment` (the user's session: HOME, XDG folders, DISPLAY, the bus), and waits for its
    /// window. `instance`: the WM_CLASS instance its window has, when the app opens others first.
    public init(_ entry: String, _ arguments: [String] = [], environment: [String: String], windows: TestWindowClient,
                instance: String? = nil, timeout: TimeInterval = 30) throws {
        self.entry = entry
        self.windows = windows
        let before = Set(windows.clientList())
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: try DesktopHarness.which("gtk-launch"))
        launcher.arguments = [entry] + arguments
        launcher.environment = Self.sessionEnvironment(environment)
        // Not a pipe: the app inherits the launcher's output and would hold a pipe open for its life.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gtk-launch-\(UUID().uuidString.prefix(8)).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        launcher.standardInput = FileHandle.nullDevice
        launcher.standardOutput = FileHandle.nullDevice
        let errors = try FileHandle(forWritingTo: log)
        launcher.standardError = errors
        try launcher.run()
        try? errors.close()
        launcher.waitUntilExit()
        guard launcher.terminationStatus == 0 else {
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(description: "gtk-launch \(entry) failed (\(launcher.terminationStatus)): \(said) "
                          + "(scripts/install-deps.sh --test installs the app)")
        }
        var found: TestWindow?
        windows.waitUntil(timeout: timeout) {
            found = windows.clientList().map { TestWindow(xid: $0) }.first { window in
                !before.contains(window.xid) && windows.transientFor(window) == nil
                    && (instance == nil || windows.wmClass(of: window)?.instance == instance)
            }
            return found != nil
        }
        guard let found else {
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let listed = windows.clientList().map { TestWindow(xid: $0) }.filter { !before.contains($0.xid) }
                .map { "\($0) \(windows.wmClass(of: $0).map { "\($0.instance)/\($0.wmClass)" } ?? "no class")" }
            throw Failure(description: "\(entry), launched from its entry, opened no window within \(timeout) s "
                          + "(new windows: \(listed); it said: \(said.suffix(2000)))")
        }
        window = found
        pid = windows.pid(of: found)
    }

    deinit { end() }

    /// The user's session environment for an app: GTK without accessibility bus or GL, as on a
    /// bare X server, and Debian's PATH for users, which has the games (`sol`) that root's lacks.
    public static func sessionEnvironment(_ environment: [String: String]) -> [String: String] {
        var session = environment.merging(["GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
                                           "GSK_RENDERER": "cairo", "QT_QPA_PLATFORM": "xcb"]) { $1 }
        let path = session["PATH"] ?? "/usr/bin:/bin"
        if !path.split(separator: ":").contains("/usr/games") { session["PATH"] = path + ":/usr/games" }
        return session
    }

    /// Ends the app and waits until it is gone and the window manager has let go of its windows
    /// (the next app's windows may get their ids): SIGTERM to its pid (SIGKILL after 10 s), or,
    /// without a pid, the X server closes its connection (XKillClient).
    public func end() {
        // Its windows by id, read while they exist: once destroyed they tell no pid, though the
        // window manager may list them a moment longer, and the next app's windows get their ids.
        let own = Set(windows.clientList().filter { $0 == window.xid || (pid != nil && windows.pid(of: TestWindow(xid: $0)) == pid) })
        if let pid {
            if Self.isRunning(pid) {
                kill(pid, SIGTERM)
                if !windows.waitUntil(timeout: 10, { !Self.isRunning(pid) }) {
                    kill(pid, SIGKILL)
                    windows.waitUntil(timeout: 5) { !Self.isRunning(pid) }
                }
            }
        } else if !own.isEmpty {
            windows.killClient(window)
        }
        windows.waitUntil(timeout: 10) { own.isDisjoint(with: windows.clientList()) }
    }

    /// Whether `pid` runs and is not a zombie (the launcher exited, so no test process reaps it).
    public static func isRunning(_ pid: Int32) -> Bool {
        guard let state = ProcessMeasures.statFields(pid).first else { return false }
        return state != "Z"
    }
}
