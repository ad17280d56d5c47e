@testable import CardContent
import Foundation
import LocalSystem
import ScreenTimeCore
import Harnesses
import XCTest

/// Launch buttons start real processes: a recording script stands in for the app and writes the
/// argument vector it received, its session and its standard input, so the test sees what the
/// started process got, not what the launcher meant to send.
final class CardLauncherTests: XCTestCase {
    var root: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("share/applications"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("my bin"), withIntermediateDirectories: true)
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
        let system = ProcessInfo.processInfo.environment
        // The test's folder first, the machine's real entries after it.
        environment = ["HOME": root.path, "XDG_DATA_HOME": root.appendingPathComponent("home-data").path,
                       "XDG_DATA_DIRS": root.path + "/share:" + (system["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share"),
                       "PATH": root.path + "/my bin:" + (system["PATH"] ?? "/usr/bin:/bin")]
    }

    /// A script at `my bin/NAME` that writes its arguments (NUL-separated), then its session id
    /// and what its standard input is, to `NAME.out`, atomically.
    @discardableResult
    func recorder(_ name: String) throws -> String {
        let path = root.appendingPathComponent("my bin/\(name)").path
        let out = root.appendingPathComponent("\(name).out").path
        try """
            #!/bin/sh
            { for a in "$@"; do printf '%s\\0' "$a"; done
              printf 'sid=%s\\0' "$(cut -d' ' -f6 /proc/$$/stat)"
              printf 'stdin=%s\\0' "$(readlink /proc/$$/fd/0)"; } > "\(out).part"
            mv "\(out).part" "\(out)"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// What the recorder `name` received: its arguments, then `sid=…` and `stdin=…`.
    func recorded(_ name: String) throws -> [String] {
        let out = root.appendingPathComponent("\(name).out").path
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: out) }, "\(name) was not started")
        return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func entry(_ id: String, _ lines: String) throws {
        try "[Desktop Entry]\nType=Application\n\(lines)\n"
            .write(toFile: root.path + "/share/applications/\(id).desktop", atomically: true, encoding: .utf8)
    }

    func testADesktopEntryStartsDetachedWithTheExactArgumentVector() throws {
        let program = try recorder("record argv")
        try entry("org.example.Recorder", #"""
            Name=Recorder
            Icon=rec-icon
            Exec="\#(program)" --name %c %i "quoted arg with \\$dollar, \\\\backslash and \\"quotes\\"" %k 100%% %U %d
            """#)
        let pid = try CardLauncher.launch(.desktopEntry("org.example.Recorder"), environment: environment)
        XCTAssertGreaterThan(pid, 0)
        let received = try recorded("record argv")
        XCTAssertEqual(Array(received.dropLast(2)), ["--name", "Recorder", "--icon", "rec-icon", #"quoted arg with $dollar, \backslash and "quotes""#,
                                                     root.path + "/share/applications/org.example.Recorder.desktop", "100%"])
        XCTAssertEqual(received.last, "stdin=/dev/null")
        // A session of its own: the card exiting takes nothing with it.
        XCTAssertEqual(received.dropLast().last, "sid=\(pid)")
        XCTAssertNotEqual(getsid(0), pid)
    }

    func testATerminalAppRunsInTheUsersTerminal() throws {
        let program = try recorder("top-like")
        try recorder("x-terminal-emulator")
        try entry("org.example.Top", "Name=Top\nExec=top-like --tree\nTerminal=true")
        try CardLauncher.launch(.desktopEntry("org.example.Top"), environment: environment)
        XCTAssertEqual(Array(try recorded("x-terminal-emulator").dropLast(2)), ["-e", "top-like", "--tree"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: program))
    }

    func testMissingAppsAndTryExecAreClearErrors() throws {
        XCTAssertThrowsError(try CardLauncher.launch(.desktopEntry("org.example.Nowhere"), environment: environment)) {
            XCTAssertEqual($0 as? LaunchError, .notInstalled(id: "org.example.Nowhere"))
        }
        try entry("org.example.Gone", "Name=Gone\nTryExec=gone-app\nExec=gone-app")
        XCTAssertThrowsError(try CardLauncher.launch(.desktopEntry("org.example.Gone"), environment: environment)) {
            XCTAssertEqual($0 as? LaunchError, .tryExecMissing(entry: self.root.path + "/share/applications/org.example.Gone.desktop", program: "gone-app"))
        }
        try entry("org.example.Broken", #"Name=Broken\#nExec=app "unclosed"#)
        XCTAssertThrowsError(try CardLauncher.launch(.desktopEntry("org.example.Broken"), environment: environment)) {
            XCTAssertTrue("\($0)".contains("org.example.Broken.desktop: Exec=app \"unclosed: a quote is not closed"), "\($0)")
        }
    }

    /// The machine's real entries still count behind the test's folder: xterm, as Debian installs it.
    func testTheRealEntriesAreFoundBehindTheTestFolder() throws {
        let path = try XCTUnwrap(DesktopEntryIndex.path(of: "debian-xterm", environment: environment), "xterm's desktop entry is not installed")
        XCTAssertFalse(path.hasPrefix(root.path))
        XCTAssertEqual(try CardLauncher.arguments(forEntry: "debian-xterm", environment: environment), ["/usr/bin/xterm"])
    }

    func testLinksAndFilesOpenWithTheDefaultHandler() throws {
        try recorder("xdg-open")
        try CardLauncher.launch(.uri("https://www.example.org/a?b=c&d='e'"), environment: environment)
        XCTAssertEqual(Array(try recorded("xdg-open").dropLast(2)), ["https://www.example.org/a?b=c&d='e'"])
    }

    func testMusicWithNoPlayerOpensWithTheDefaultHandler() throws {
        try recorder("xdg-open")
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(root.path)/no-bus"
        XCTAssertEqual(try CardLauncher.launch(.music("/music/sleep list.m3u"), environment: environment) > 0, true)
        XCTAssertEqual(Array(try recorded("xdg-open").dropLast(2)), ["/music/sleep list.m3u"])
    }

    /// A running MPRIS player (mpv with its plugin, on the harness's bus) plays the music: a local
    /// file, given to the player as a `file://` URI.
    func testMusicPlaysInARunningMPRISPlayer() throws {
        let desk = try DesktopHarness.shared()
        let sound = root.appendingPathComponent("rain sound.wav")
        try Self.silentWave(seconds: 30).write(to: sound)
        let player = Process()
        player.executableURL = URL(fileURLWithPath: try DesktopHarness.which("mpv"))
        player.arguments = ["--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--idle=yes", "--vo=null", "--ao=null"]
        player.environment = desk.environment
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        addTeardownBlock { player.terminate(); player.waitUntilExit() }
        XCTAssertTrue(eventually(10) { desk.busNameHasOwner("org.mpris.MediaPlayer2.mpv") }, "mpv's MPRIS plugin did not come up")
        func property(_ name: String) throws -> String {
            try desk.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2",
                                       "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:\(name)"])
        }
        XCTAssertFalse(try property("Metadata").contains("rain sound.wav"))

        environment["DBUS_SESSION_BUS_ADDRESS"] = desk.environment["DBUS_SESSION_BUS_ADDRESS"]
        XCTAssertEqual(try CardLauncher.launch(.music(sound.path), environment: environment), 0, "a player took it: nothing was started")
        // mpv-mpris reports PlaybackStatus "Stopped" for a file loaded into an idle mpv even while
        // it plays; the loaded file shows in the metadata.
        XCTAssertTrue(eventually { (try? property("Metadata"))?.contains("file://" + sound.path.replacingOccurrences(of: " ", with: "%20")) == true },
                      (try? property("Metadata")) ?? "")
        XCTAssertTrue(try property("Metadata").contains("rain sound.wav"))

        // A scheme the player does not list goes to the default handler.
        try recorder("xdg-open")
        XCTAssertGreaterThan(try CardLauncher.launch(.music("gopher://example.org/sleep"), environment: environment), 0)
        XCTAssertEqual(Array(try recorded("xdg-open").dropLast(2)), ["gopher://example.org/sleep"])
        XCTAssertTrue(try property("Metadata").contains("rain sound.wav"))
    }

    /// A WAV file of silence (16-bit mono, 8 kHz).
    static func silentWave(seconds: Int) -> Data {
        let samples = 8000 * seconds
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var bytes = Array("RIFF".utf8) + le32(36 + samples * 2) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
        bytes += le32(8000) + le32(16000) + le16(2) + le16(16) + Array("data".utf8) + le32(samples * 2)
        return Data(bytes + [UInt8](repeating: 0, count: samples * 2))
    }

    func testPathsBecomeFileURIs() {
        XCTAssertEqual(CardLauncher.uri("/music/rain & wind/sleep list.m3u"), "file:///music/rain%20%26%20wind/sleep%20list.m3u")
        XCTAssertEqual(CardLauncher.uri("https://example.org/sleep.m3u"), "https://example.org/sleep.m3u")
    }
}
