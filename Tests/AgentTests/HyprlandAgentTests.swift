import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The agent as a user runs it, with Hyprland's documented IPC spoken by `HyprlandProtocolPeer`
/// (Hyprland is not in Debian 12); the sway harness only lends its session bus and mako.
final class HyprlandAgentTests: XCTestCase {
    func testAgainstDocumentedProtocolPeerTheAgentCountsAndMovesADisabledAppToTheSpecialWorkspace() throws {
        let sway = try SwayHarness.shared()
        let peer = try HyprlandProtocolPeer(directory: sway.root.appendingPathComponent("hypr-\(UUID().uuidString.prefix(8))"))
        defer { peer.stop() }
        var environment = try AgentProcess.freshEnvironment(on: sway, config: """
            [general]
            idle-after = 1h
            [limits]
            stgame = 2s
            """)
        for key in ["SWAYSOCK", "I3SOCK", "WAYLAND_DISPLAY"] { environment[key] = nil }
        environment.merge(peer.environment) { $1 }
        environment["XDG_CURRENT_DESKTOP"] = "Hyprland"
        let agent = try AgentProcess(environment: environment, desk: sway)
        defer { agent.stop() }
        func status() throws -> StatusSnapshot { try StatusFormat.decode(agent.cli(["status", "--json"]).out) }

        let work = peer.openWindow(class: "stwork", title: "w", pid: getpid())
        XCTAssertTrue(eventually { (try? status().focused) == AppID("stwork") }, agent.log)
        let backends = try status().backends
        XCTAssertTrue(backends["focus"]?.hasPrefix("Hyprland IPC") == true, "\(backends)")
        XCTAssertTrue(backends["minimize"]?.hasPrefix("Hyprland IPC") == true, "\(backends)")

        let game = peer.openWindow(class: "stgame", title: "g", pid: getpid())
        XCTAssertTrue(eventually { (try? status().focused) == AppID("stgame") }, agent.log)
        XCTAssertTrue(eventually(5) { peer.window(game)?.workspace == "special:screentime" }, "\(peer.requests)")
        XCTAssertEqual(peer.window(work)?.workspace, "1", "other apps are left alone")
        XCTAssertTrue(eventually { (try? status().focused) == AppID("stwork") }, "focus went back to the window left")

        let moves = peer.requests.filter { $0.contains("movetoworkspacesilent") }.count
        peer.bringBack(game)
        XCTAssertTrue(eventually {
            peer.window(game)?.workspace == "special:screentime" && peer.requests.filter { $0.contains("movetoworkspacesilent") }.count > moves
        }, "shown again, moved again: \(peer.requests)")
    }
}
