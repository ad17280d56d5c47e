import Foundation
import Glibc
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// `screentime setup` as a user runs it: on a real pseudo-terminal, answers typed after each
/// question appears, the config and the autostart entry read back from a temporary home.
final class SetupTests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]
    var config: URL { home.appendingPathComponent(".config/screentime/config") }
    var autostart: URL { home.appendingPathComponent(".config/autostart/screentime.desktop") }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-setup-\(UUID().uuidString)")
        let applications = home.appendingPathComponent("share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=mpv Media Player\nExec=mpv %U\nCategories=AudioVideo;\n"
            .write(to: applications.appendingPathComponent("mpv.desktop"), atomically: true, encoding: .utf8)
        // Not a user session: XDG_CONFIG_HOME is the temporary home's, so is the autostart folder.
        environment = ["HOME": home.path, "TZ": Self.middayZone, "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": home.path + "/share",
                       "XDG_CONFIG_HOME": home.path + "/.config", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
    }

    /// Yesterday's use of firefox, as the agent records it: the first app offered as important.
    func recordUsage() throws {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        let start = Date().addingTimeInterval(-86_400)
        let id = try store.beginInterval(app: AppID("firefox"), title: "", mode: "standard", at: start)
        try store.extendInterval(id, to: start.addingTimeInterval(1800))
    }

    func settings() throws -> Settings {
        try Settings(KeyFile(parsing: String(contentsOf: config, encoding: .utf8)), path: config.path)
    }

    func testTheSurveyOnATerminalWritesTheConfigAndKeepsTheUsersComments() throws {
        try recordUsage()
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# my own note\n[limits]\n# the browser\nfirefox = 2h\n".write(to: config, atomically: true, encoding: .utf8)
        let todo = home.appendingPathComponent("todo.txt")
        try "(A) call the bank\n".write(to: todo, atomically: true, encoding: .utf8)

        let session = try TerminalSession(arguments: ["setup"], environment: environment)
        try session.answer(after: "What would you like help with? 1 focus, 2 sleep, 3 less social media", "1 3")
        try session.answer(after: "  1 firefox (firefox)\n  2 mpv Media Player (mpv)\n", "nosuchapp")
        try session.answer(after: "`nosuchapp` is not an app seen or installed here", "1")
        try session.answer(after: "or all [1h leisure]: ", "45m")
        try session.answer(after: "from when does it hold? (next-day, 12h, 1h, now) [next-day]: ", "soon")
        try session.answer(after: "Type next-day, 12h, 1h or now.", "12h")
        try session.answer(after: "Gray the screen in Productivity? (yes/no) [yes]: ", "")
        try session.answer(after: "(a todo.txt or a plain list; none for none) [none]: ", todo.path)
        try session.answer(after: "separated by spaces; none for none) [none]: ", "file:///srv/news.rss")
        try session.answer(after: "Start screentime when you log in? (yes/no) [no]: ", "yes")
        let output = try session.finish()
        XCTAssertEqual(session.status, 0, output)
        XCTAssertFalse(output.contains("Your usual bedtime"), "sleep was not chosen, so its times are not asked")
        XCTAssertTrue(output.contains("  Social        when you ask (screentime mode social)"), output)

        let written = try settings()
        XCTAssertEqual(written.modes.enabledModes, [.standard, .productivity, .social, .windDown, .sleep, .wakeUp, .cheatDay])
        XCTAssertFalse(written.modes.automatic.isEnabled)
        XCTAssertEqual(written.important, [AppID("firefox")])
        XCTAssertEqual(written.defaultLimit, 45 * 60)
        XCTAssertEqual(written.commitment.loosen, .twelveHours)
        XCTAssertEqual(written.limits[AppID("firefox")], 7200)
        XCTAssertEqual(written.profile(for: .productivity).displayFilter, .grayscale)
        XCTAssertEqual(written.content.todoPath, todo.path)
        XCTAssertEqual(written.content.feeds, ["file:///srv/news.rss"])
        XCTAssertTrue(try String(contentsOf: config, encoding: .utf8).hasPrefix("# my own note\n[limits]\n# the browser\nfirefox = 2h\n"))
        try assertAutostartEntry()

        // Run again: the answers given are offered, and Enter keeps them all.
        let before = try String(contentsOf: config, encoding: .utf8)
        let rerun = try TerminalSession(arguments: ["setup"], environment: environment)
        for prompt in ["[focus social]: ", "[firefox]: ", "[45m leisure]: ", "[12h]: ", "[yes]: ", "[\(todo.path)]: ", "[file:///srv/news.rss]: ", "log in? (yes/no) [yes]: "] {
            try rerun.answer(after: prompt, "")
        }
        _ = try rerun.finish()
        XCTAssertEqual(rerun.status, 0)
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), before)
    }

    func testDefaultsWriteAConfigThatParsesWithoutAsking() throws {
        let result = try AgentProcess.run(["setup", "--defaults"], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try settings().modes.enabledModes, Set(Mode.allCases))
        XCTAssertEqual(try settings().defaultLimit, 3600)
        XCTAssertTrue(result.out.contains("  Wind Down     from 22:00, before your bedtime 23:00"), result.out)
        XCTAssertTrue(try String(contentsOf: config, encoding: .utf8).hasPrefix("# screentime configuration."))
        try assertAutostartEntry()
    }

    func testAutostartAnsweredNoRemovesTheEntry() throws {
        XCTAssertEqual(try AgentProcess.run(["setup", "--defaults"], environment: environment).status, 0)
        let session = try TerminalSession(arguments: ["setup"], environment: environment)
        try session.answer(after: "[focus sleep social]: ", "")
        for prompt in ["[23:00]: ", "[07:00]: ", "[learn]: ", "[none]: ", "[1h leisure]: ", "[next-day]: ", "[yes]: ", "[none]: ", "[none]: "] {
            try session.answer(after: prompt, "")
        }
        try session.answer(after: "log in? (yes/no) [yes]: ", "no")
        _ = try session.finish()
        XCTAssertEqual(session.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: autostart.path))
    }

    func testWhereTheSystemdUnitStartsTheAgentNoEntryIsWritten() throws {
        // What `systemctl --user enable screentime` (install.sh) leaves in the user's config folder.
        let wants = home.appendingPathComponent(".config/systemd/user/graphical-session.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        try "[Service]\n".write(to: home.appendingPathComponent(".config/systemd/user/screentime.service"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: wants.appendingPathComponent("screentime.service").path, withDestinationPath: "../screentime.service")
        let result = try AgentProcess.run(["setup", "--defaults"], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("The agent starts with your session (the systemd user unit, "), result.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: autostart.path))
    }

    func testWithoutATerminalItAsksForDefaults() throws {
        let result = try AgentProcess.run(["setup"], environment: environment)
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.err, "screentime setup: stdin is not a terminal; run it in a terminal, or use --defaults (see screentime setup --help)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.path))
    }

    func testTheQuestionsEndingEarlyWriteNothing() throws {
        let session = try TerminalSession(arguments: ["setup"], environment: environment)
        try session.answer(after: "[focus sleep social]: ", "2")
        try session.endOfInput(after: "[23:00]: ")
        let output = try session.finish()
        XCTAssertEqual(session.status, 1, output)
        XCTAssertTrue(output.contains("nothing was written"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.path))
    }

    /// The entry install.sh writes from packaging/, running this very binary.
    func assertAutostartEntry(file: StaticString = #filePath, line: UInt = #line) throws {
        let packaged = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("packaging/screentime-autostart.desktop")
        let binary = AgentProcess.binary.resolvingSymlinksInPath().path
        let expected = try String(contentsOf: packaged, encoding: .utf8).replacingOccurrences(of: "@BIN@/screentime", with: binary)
        XCTAssertEqual(try String(contentsOf: autostart, encoding: .utf8), expected, file: file, line: line)
    }
}

/// `screentime ARGS` with a pseudo-terminal as its stdin and stdout, driven like a person typing.
final class TerminalSession {
    let process = Process()
    private let master: Int32
    private var output = ""
    private var consumed: String.Index

    init(arguments: [String], environment: [String: String]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        self.master = master
        consumed = output.startIndex
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = AgentProcess.binary
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        try terminal.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    var status: Int32 { process.terminationStatus }

    /// Waits for `prompt` after what was answered so far, then types `line` and Enter.
    func answer(after prompt: String, _ line: String, file: StaticString = #filePath, at: UInt = #line) throws {
        try wait(for: prompt, file: file, line: at)
        type(line + "\n")
    }

    /// Waits for `prompt`, then types Ctrl-D on an empty line.
    func endOfInput(after prompt: String, file: StaticString = #filePath, at: UInt = #line) throws {
        try wait(for: prompt, file: file, line: at)
        type("\u{4}")
    }

    /// Waits for the program to exit; everything it printed.
    func finish() throws -> String {
        XCTAssertTrue(eventually(10) { readAvailable(); return !process.isRunning }, "setup did not end:\n\(output)")
        process.waitUntilExit()
        readAvailable()
        return output
    }

    private func wait(for prompt: String, file: StaticString, line: UInt) throws {
        var found: Range<String.Index>?
        _ = eventually(10) {
            readAvailable()
            found = output[consumed...].range(of: prompt)
            return found != nil
        }
        guard let found else {
            XCTFail("no `\(prompt)` in:\n\(output[consumed...])", file: file, line: line)
            throw POSIXError(.ETIMEDOUT)
        }
        consumed = found.upperBound
    }

    private func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, text.utf8.count) }
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLIN) != 0 {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            // The terminal writes CR LF.
            output += String(decoding: buffer[..<count], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
    }
}
