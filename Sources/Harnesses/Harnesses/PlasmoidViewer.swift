import Foundation

/// The project's Plasma applet, installed by `desktop/plasma/install.sh` into a test's own home
/// (through kpackagetool5, as a user's install) and shown by Plasma's own `plasmoidviewer` (plasma-sdk)
/// on the harness's X display. What it shows is read back from its test log (the applet's
/// `org.screentime.applet` category, off unless QT_LOGGING_RULES turns it on); its buttons are
/// pressed with the pointer, at the places it logs.
public final class PlasmoidViewer {
    public static let appletID = "org.screentime.status"
    public let process = Process()
    /// The viewer's standard error, where Qt writes the applet's log: a file, so that a command the
    /// applet left running cannot hold it open, and so that it stays for reading after a failure.
    public let logURL: URL
    private let log: FileHandle
    private var buffer = Data()
    /// Every line the viewer wrote so far, oldest first, with when it was read.
    public private(set) var lines: [(text: String, read: Date)] = []
    private let environment: [String: String]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The repository's `desktop/plasma`.
    public static let source = GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/plasma")

    public enum Place: String {
        /// On the desktop: the full view in place.
        case desktop
        /// In a top panel (Plasma's own panel containment): the compact view, the full one in its popup.
        case panel
    }

    /// Installs the applet for `environment`'s user (naming the built `screentime`) and shows it.
    public init(environment base: [String: String], in place: Place = .desktop) throws {
        var environment = base
        environment["QT_LOGGING_RULES"] = "org.screentime.applet.debug=true"
        environment["QT_QPA_PLATFORM"] = "xcb"
        // No KCrash handler: a viewer crashing as it is stopped would be started again, outliving the test.
        environment["KDE_DEBUG"] = "1"
        // Plasma's own style, as plasmashell sets it: the Plasma theme's colours reach Kirigami.
        environment["QT_QUICK_CONTROLS_STYLE"] = "Plasma"
        self.environment = environment
        let install = Process()
        install.executableURL = Self.source.appendingPathComponent("install.sh")
        install.arguments = [AgentProcess.binary.deletingLastPathComponent().path]
        install.environment = environment
        let installed = try install.finishedOutput()
        guard installed.status == 0 else { throw Failure(description: "install.sh failed: \(installed.err)") }
        let plasmoids = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("plasma/plasmoids")
        guard FileManager.default.fileExists(atPath: plasmoids.appendingPathComponent("\(Self.appletID)/metadata.json").path) else {
            throw Failure(description: "install.sh did not install the applet in \(plasmoids.path): \(installed.out)")
        }

        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("plasmoidviewer"))
        process.arguments = switch place {
        case .desktop: ["-a", Self.appletID, "-f", "planar", "-s", "640x800"]
        case .panel: ["-c", "org.kde.panel", "-a", Self.appletID, "-f", "horizontal", "-l", "topedge", "-s", "640x48"]
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        logURL = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("plasmoidviewer-\(place.rawValue).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logURL)
        log = try FileHandle(forReadingFrom: logURL)
        try process.run()
    }

    /// The applet's last "shown:" line once it satisfies `condition`, waiting at most `seconds`.
    public func shown(within seconds: TimeInterval = 20, where condition: (String) -> Bool) throws -> String {
        try logged("shown: ", within: seconds, where: condition)
    }

    /// The buttons shown, by key (`productivity`, `break`, `bedtime`, …), at their centres in the
    /// window, once they have stayed put for half a second: the containment resizes the applet to
    /// its content in a few steps after each change.
    public func buttons(within seconds: TimeInterval = 10, where condition: ([String: (x: Int, y: Int)]) -> Bool) throws -> [String: (x: Int, y: Int)] {
        let deadline = Date().addingTimeInterval(seconds)
        var line = try logged("buttons: ", within: seconds) { condition(Self.places($0)) }
        while true {
            let count = lines.count
            readMore(waitingAtMost: 500)
            while lines.count > count, Date() < deadline { readMore(waitingAtMost: 500) }
            let latest = try logged("buttons: ", within: max(0.1, deadline.timeIntervalSinceNow)) { condition(Self.places($0)) }
            if latest == line { return Self.places(line) }
            line = latest
        }
    }

    public static func places(_ line: String) -> [String: (x: Int, y: Int)] {
        var places: [String: (x: Int, y: Int)] = [:]
        for entry in line.split(separator: ";") {
            let words = entry.split(separator: " ")
            if words.count == 3, let x = Int(words[1]), let y = Int(words[2]) { places[String(words[0])] = (x, y) }
        }
        return places
    }

    /// Clicks at `place` in the viewer's window with the pointer (xdotool), as a user would.
    public func click(_ place: (x: Int, y: Int)) throws {
        let window = try self.window()
        let xdotool = Process()
        xdotool.executableURL = URL(fileURLWithPath: try DesktopHarness.which("xdotool"))
        xdotool.arguments = ["mousemove", "--window", window, String(place.x), String(place.y), "click", "1"]
        xdotool.environment = environment
        let result = try xdotool.finishedOutput()
        guard result.status == 0 else { throw Failure(description: "xdotool: \(result.err)") }
    }

    /// Presses `key` (xdotool's name: Tab, space) in the viewer's window, given the focus first.
    public func press(_ key: String) throws {
        let window = try self.window()
        for arguments in [["windowactivate", "--sync", window], ["key", "--clearmodifiers", key]] {
            let xdotool = Process()
            xdotool.executableURL = URL(fileURLWithPath: try DesktopHarness.which("xdotool"))
            xdotool.arguments = arguments
            xdotool.environment = environment
            let result = try xdotool.finishedOutput()
            guard result.status == 0 else { throw Failure(description: "xdotool \(arguments): \(result.err)") }
        }
    }

    /// Tabs through the popup until `control` has the keyboard focus (as the applet logs it).
    public func tab(to control: String, atMost presses: Int = 15) throws {
        for _ in 0..<presses {
            let before = lines.count
            try press("Tab")
            let deadline = Date().addingTimeInterval(1)
            while Date() < deadline, !lines[before...].contains(where: { $0.text.contains("org.screentime.applet: focus: ") }) {
                readMore(waitingAtMost: 100)
            }
            if lines[before...].last(where: { $0.text.contains("org.screentime.applet: focus: ") })?.text
                .hasSuffix("focus: " + control) == true { return }
        }
        throw Failure(description: "Tab did not reach \(control) in \(presses) presses; the log:\n"
                      + lines.suffix(20).map(\.text).joined(separator: "\n"))
    }

    /// The CPU time the viewer (and so the applet) has used so far, in seconds (utime + stime).
    public func cpuSeconds() -> Double {
        let used = ProcessMeasures.cpuSeconds(process.processIdentifier)
        return used.user + used.system
    }

    /// The CPU the viewer uses in `seconds`, measured once `settling` seconds have let the last
    /// change's drawing (and the containment's resizing) finish.
    public func cpuUsed(in seconds: TimeInterval, after settling: TimeInterval = 3) -> Double {
        usleep(useconds_t(settling * 1_000_000))
        let before = cpuSeconds()
        usleep(useconds_t(seconds * 1_000_000))
        return cpuSeconds() - before
    }

    /// Waits until the viewer's window is mapped (a window manager focuses it then, which a test
    /// focusing another window must wait for).
    public func waitForWindow(within seconds: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while (try? window()) == nil {
            guard Date() < deadline else { throw Failure(description: "plasmoidviewer mapped no window within \(seconds) s") }
            usleep(50_000)
        }
    }

    /// The viewer's mapped window (its client window, where the scene's coordinates start).
    public func window() throws -> String {
        let search = Process()
        search.executableURL = URL(fileURLWithPath: try DesktopHarness.which("xdotool"))
        search.arguments = ["search", "--onlyvisible", "--pid", String(process.processIdentifier)]
        search.environment = environment
        let found = try search.finishedOutput().out.split(separator: "\n").map(String.init)
        guard let window = found.last else { throw Failure(description: "no window of plasmoidviewer is mapped") }
        return window
    }

    /// The latest line after `prefix` once it satisfies `condition`, and when it was read.
    public func logged(_ prefix: String, within seconds: TimeInterval, where condition: (String) -> Bool) throws -> String {
        try loggedWithTime(prefix, within: seconds, where: condition).text
    }

    public func loggedWithTime(_ prefix: String, within seconds: TimeInterval, where condition: (String) -> Bool) throws -> (text: String, read: Date) {
        let deadline = Date().addingTimeInterval(seconds)
        let marker = "org.screentime.applet: " + prefix
        func latest() -> (text: String, read: Date)? {
            guard let line = lines.last(where: { $0.text.contains(marker) }) else { return nil }
            let text = String(line.text[line.text.range(of: marker)!.upperBound...])
            return condition(text) ? (text, line.read) : nil
        }
        while true {
            if let found = latest() { return found }
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard process.isRunning, left > 0 else {
                readMore(waitingAtMost: 0) // what it wrote last
                if let found = latest() { return found }
                throw Failure(description: "no \(prefix)line as wanted within \(seconds) s; plasmoidviewer "
                              + (process.isRunning ? "runs" : "exited with \(process.terminationStatus)") + "; its log:\n"
                              + lines.suffix(30).map(\.text).joined(separator: "\n"))
            }
            readMore(waitingAtMost: left)
        }
    }

    /// Reads what the viewer wrote since the last read; waits up to `milliseconds` (in 5 ms steps) for something.
    private func readMore(waitingAtMost milliseconds: Int32) {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        repeat {
            let chunk = log.readDataToEndOfFile()
            if !chunk.isEmpty {
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append((String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self), Date()))
                    buffer = Data(buffer[buffer.index(after: newline)...])
                }
                return
            }
            usleep(5_000)
        } while Date() < deadline
    }

    deinit {
        // Bounded: a viewer gone but not yet reaped must not hold the run.
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !HarnessProcesses.waitForExit(process, timeout: 5) {
            kill(process.processIdentifier, SIGKILL)
            _ = HarnessProcesses.waitForExit(process, timeout: 5)
        }
    }
}
