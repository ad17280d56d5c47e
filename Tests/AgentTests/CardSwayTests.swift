import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The card on a wlroots compositor (headless sway 1.7): drawn on the layer shell's overlay layer.
/// Headless sway has no input devices, so only its start and its end are seen here.
final class CardSwayTests: XCTestCase {
    var sway: SwayHarness!

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
    }

    func testTheCardStaysOnTheOverlayLayerUntilTheAgentEnds() throws {
        let environment = try AgentProcess.freshEnvironment(on: sway, config: "[general]\nidle-after = 1h\n[limits]\nstcard = 1s\n",
                                                            cards: true)
        let doctor = try AgentProcess.run(["doctor"], environment: environment).out
        XCTAssertTrue(doctor.contains("Wayland: the overlay layer (layer shell)"), doctor)
        let monitor = try BusMonitor(address: sway.busAddress)
        let agent = try AgentProcess(environment: environment, desk: sway)
        let window = try sway.openWindow(appID: "stcard")
        defer { sway.close(window) }
        XCTAssertTrue(eventually(5) { (try? self.sway.state(of: window)?.inScratchpad) == true }, "disabled at its limit; log: \(agent.log)")
        XCTAssertTrue(eventually { agent.cards().count == 1 }, "a card started; log: \(agent.log)")
        // Still there a while later: it opened the display and waits for the user.
        usleep(1_000_000)
        XCTAssertEqual(agent.cards().count, 1, "the card is still up; log: \(agent.log)")
        XCTAssertFalse(agent.log.contains("before an answer"), agent.log)
        try monitor.drain()
        XCTAssertFalse(monitor.notifyCalls.contains { $0.actions.contains("continue") }, "no notification stands in")
        let card = try XCTUnwrap(agent.cards().first?.pid)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertTrue(eventually { kill(card, 0) != 0 }, "the card ended with the agent")
    }
}
