import Foundation

/// i3 on a private Xvfb, for the i3 IPC provider on X11: i3 listens on an IPC socket of the
/// harness's own (I3SOCK). Test windows are `TestWindowClient`'s, on `display`. Stopped by `stop()`.
public final class I3Harness {
    public let root: URL
    public private(set) var display = ""
    public let ipcSocket: String
    /// DISPLAY and I3SOCK, as an i3 session has them.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["WAYLAND_DISPLAY", "SWAYSOCK", "HYPRLAND_INSTANCE_SIGNATURE"] { environment[key] = nil }
        environment["DISPLAY"] = display
        environment["I3SOCK"] = ipcSocket
        environment["XDG_SESSION_TYPE"] = "x11"
        environment["XDG_CURRENT_DESKTOP"] = "i3"
        return environment
    }

    private let processes = HarnessProcesses()

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-i3-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        ipcSocket = root.appendingPathComponent("i3.sock").path

        display = try DesktopHarness.launchXvfb(processes, [], environment: nil)

        let config = root.appendingPathComponent("i3.conf")
        try """
            ipc-socket \(ipcSocket)
            font pango:monospace 8
            focus_on_window_activation focus
            """.write(to: config, atomically: true, encoding: .utf8)
        let i3 = try processes.launch("i3", ["-c", config.path], environment: environment, name: "i3")
        try DesktopHarness.waitFor("i3", timeout: 10, alive: i3) { (try? self.i3msg(["-t", "get_version"]))?.contains("4.") == true }
    }

    deinit { stop() }

    /// Runs `i3-msg` on the harness's socket; a failing command is an error.
    @discardableResult
    public func i3msg(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("i3-msg"))
        process.arguments = ["-s", ipcSocket] + arguments
        process.standardError = FileHandle.nullDevice
        return try process.checkedOutput("i3-msg \(arguments.joined(separator: " "))")
    }

    /// Every window in i3's tree.
    public func windowStates() throws -> [I3TreeWindow] {
        try I3Tree.windows(in: i3msg(["-t", "get_tree"]))
    }

    public func stop() {
        processes.stopAll()
        try? FileManager.default.removeItem(at: root)
    }
}
