import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// Media playing in the focused app keeps time counting while the user does not touch the
/// input: a real player (mpv with its MPRIS plugin, playing a generated video) on the harness.
final class SessionMediaDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }


    /// mpv playing an endless generated video with no sound, its MPRIS plugin loaded. Without
    /// `--stop-screensaver=no` mpv resets the X idle time itself while playing, and the test
    /// would not show that MPRIS alone keeps the user present.
    func startPlayer() throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: try DesktopHarness.which("mpv"))
        player.arguments = ["--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--vo=x11", "--ao=null", "--stop-screensaver=no",
                            "--title=film", "av://lavfi:testsrc=size=160x120:rate=10"]
        player.environment = desk.environment
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        addTeardownBlock { player.terminate(); player.waitUntilExit() }
        return player
    }

    func mpris(_ method: String) throws {
        try desk.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2",
                                   "org.mpris.MediaPlayer2.Player.\(method)"])
    }

    func testMediaPlayingInTheFocusedAppCountsPastTheIdleThresholdAndPausedItStops() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1s\n"),
                                     desk: desk)
        let player = try startPlayer()
        var playerWindow = ""
        XCTAssertTrue(eventually(10) {
            playerWindow = (try? self.desk.run("xdotool", ["search", "--pid", "\(player.processIdentifier)"]))?
                .split(separator: "\n").first.map(String.init) ?? ""
            return !playerWindow.isEmpty
        }, "mpv opened no window")
        try desk.run("xdotool", ["mousemove", "20", "20"])
        try desk.run("xdotool", ["windowactivate", playerWindow])
        XCTAssertTrue(eventually { agent.isCounting("mpv") }, agent.log)

        // Well past the 1 s threshold without input: the film keeps it counting.
        let watching = Date()
        usleep(2_500_000)
        XCTAssertTrue(agent.isCounting("mpv"), "a film playing in the focused app counts without input: \(agent.log)")
        let watched = try agent.usedSeconds("mpv")
        XCTAssertGreaterThanOrEqual(watched, Date().timeIntervalSince(watching) - 0.5)

        // Paused, the user is idle: counting stops at once.
        let paused = Date()
        try mpris("Pause")
        XCTAssertTrue(eventually(2) { !agent.isCounting("mpv") }, agent.log)
        let stoppedAfter = Date().timeIntervalSince(paused)
        let used = try agent.usedSeconds("mpv")
        usleep(600_000)
        XCTAssertEqual(try agent.usedSeconds("mpv"), used, accuracy: 0.01)

        // Playing again counts again, still without input.
        try mpris("Play")
        XCTAssertTrue(eventually(2) { agent.isCounting("mpv") }, agent.log)

        // Media playing in an app that is not focused does not keep the user present.
        let notes = try windows.openWindow(class: "Notes", title: "n")
        addTeardownBlock { [windows] in windows?.close(notes) } // later tests start from an empty desktop
        windows.activate(notes)
        XCTAssertTrue(eventually(3) { (try? agent.status().focused) == "notes" && !agent.isCounting("notes") },
                      "idle in another app while the film plays elsewhere: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let firstViewing = try XCTUnwrap(UsageDatabase(path: agent.databasePath, readOnly: true)
            .intervals(from: watching.addingTimeInterval(-60), to: Date()).filter { $0.app == "mpv" }.min { $0.start < $1.start })
        let lag = firstViewing.end.timeIntervalSince(paused)
        XCTAssertEqual(lag, 0, accuracy: 0.5, "the interval ends when the film is paused")
        print("media: counted \(String(format: "%.1f", watched)) s of a film watched without input; the interval ended "
              + "\(String(format: "%.0f", lag * 1000)) ms after Pause was sent (status showed it after \(String(format: "%.0f", stoppedAfter * 1000)) ms)")
    }
}
