import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Issue 19 on the real desktop (Xvfb, openbox, the session bus): what another program or user
/// puts in front of screentime is shown, never obeyed.
final class OutsideInputDesktopTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    func controls(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }.map(\.value)
    }

    /// `xterm -class $'esc\e]0;INJECTED\a'`: its app id set the terminal's title through `apps`,
    /// `report` and `status`. Each now shows the id with U+FFFD where the controls were.
    func testAWindowClassWithEscapeSequencesNeverReachesTheTerminal() throws {
        let windows = try TestWindowClient(display: desk.display)
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"), desk: desk)
        let window = try windows.openWindow(class: "esc\u{1B}]0;INJECTED\u{07}", title: "\u{1B}[2J\u{9B}1;1H title")
        windows.activate(window)
        let id = AppID("esc\u{1B}]0;injected\u{07}")
        XCTAssertTrue(eventually(5) { (try? agent.status().focused) == id }, "log: \(agent.log)")
        XCTAssertTrue(eventually(8) { (try? agent.cli(["apps"]).out.contains("esc\u{FFFD}]0;injected\u{FFFD}")) == true },
                      (try? agent.cli(["apps"]).out) ?? "")
        for arguments in [["apps"], ["report", "today"], ["status"], ["status", "--i3blocks"]] {
            let result = try agent.cli(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.err)")
            XCTAssertEqual(controls(result.out) + controls(result.err), [], "\(arguments): \(result.out.debugDescription)")
            // The id, or the name made from the class as it was given.
            XCTAssertTrue(result.out.lowercased().contains("esc\u{FFFD}]0;injected\u{FFFD}"), "\(arguments): \(result.out)")
        }
        let json = try agent.cli(["status", "--json"]).out
        XCTAssertEqual(try StatusFormat.decode(json).focused, id, "JSON keeps the id faithfully")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        XCTAssertEqual(controls(agent.log), [], "the agent's own log shows them too")
    }

    /// Without `XDG_RUNTIME_DIR` the runtime folder is `$TMPDIR/screentime-<uid>`. Another user
    /// made it first, open to all, with ramps of theirs (flat 0.5): `display restore` applied them.
    /// Now it refuses, naming the folder and its owner, and the screen keeps the user's ramps; the
    /// same folder made the user's own is used (so the refusal is the folder's owner, nothing else).
    func testDisplayRestoreRefusesAnotherUsersRuntimeFolderAndItsRamps() throws {
        let randr = try RandRFixture(displayName: desk.display)
        randr.setGamma(randr.nightLightRamp())
        let original = randr.gamma()
        addTeardownBlock { randr.setGamma(randr.identityRamp()) }
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "")
        environment["XDG_RUNTIME_DIR"] = nil
        let temporary = environment["HOME"]! + "/tmp"
        environment["TMPDIR"] = temporary
        let runtime = XDGPaths.runtimeDirectory(environment: environment, uid: getuid())
        XCTAssertEqual(runtime, temporary + "/screentime-\(getuid())")

        // Made by uid 65534 (nobody), mode 0777, holding its ramps for this screen.
        let size = randr.gammaSize
        let flat = [String](repeating: "32768", count: size).joined(separator: " ")
        let theirs = "screentime display originals 1\noutput \(randr.outputName)\ncrtc \(randr.crtc)\ngamma \(size)\n"
            + "red \(flat)\ngreen \(flat)\nblue \(flat)\n"
        try FileManager.default.createDirectory(atPath: runtime + "/display-originals", withIntermediateDirectories: true)
        try theirs.write(toFile: runtime + "/display-originals/output-\(randr.outputName)", atomically: false, encoding: .utf8)
        for path in [runtime, runtime + "/display-originals", runtime + "/display-originals/output-\(randr.outputName)"] {
            XCTAssertEqual(chmod(path, 0o777), 0)
            XCTAssertEqual(chown(path, 65534, 65534), 0, "the tests run as root")
        }
        let refused = try AgentProcess.run(["display", "restore"], environment: environment)
        XCTAssertEqual(refused.status, 1, refused.out)
        XCTAssertTrue(refused.err.contains("\(runtime): belongs to uid 65534, not to you (uid \(getuid()))"), refused.err)
        XCTAssertEqual(randr.gamma(), original, "someone else's ramps are not applied")

        XCTAssertEqual(chown(runtime, getuid(), getgid()), 0)
        XCTAssertEqual(chmod(runtime, 0o700), 0)
        let restored = try AgentProcess.run(["display", "restore"], environment: environment)
        XCTAssertEqual(restored.status, 0, restored.err)
        XCTAssertEqual(restored.out, "restored the colours of \(randr.outputName)\n")
        XCTAssertEqual(randr.gamma().red, [UInt16](repeating: 32768, count: size), "the user's own saved ramps are applied")
    }
}
