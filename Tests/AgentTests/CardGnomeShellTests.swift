import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The card on GNOME Shell (Wayland): Mutter has no layer shell, so the card is a full-screen
/// toplevel; it must come to the front over the app it disabled, without a click.
final class CardGnomeShellTests: GnomeShellTestCase {
    func testTheCardComesToTheFrontOverTheDisabledApp() throws {
        let environment = try AgentProcess.freshEnvironment(on: shell, config: "[general]\nidle-after = 1h\n[limits]\nstgcard = 1s\n",
                                                            cards: true)
        let doctor = try AgentProcess.run(["doctor"], environment: environment).out
        XCTAssertTrue(doctor.contains("a full-screen window"), doctor)
        let agent = try AgentProcess(environment: environment, desk: shell)
        let app = try shell.openWindow(appID: "stgcard")
        var card: GnomeShellHarness.Window?
        XCTAssertTrue(eventually(10) {
            card = (try? self.shell.windows())?.first { $0.wmClass == "screentime-card" }
            return card != nil && (try? self.shell.focusedWindowID()) == card?.id
        }, "the card is shown and has the focus; windows: \((try? shell.windows()) ?? []); log: \(agent.log)")
        XCTAssertEqual(try shell.windows().first { $0.id == app.id }?.minimized, true, "the app was minimized")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        XCTAssertTrue(eventually { (try? self.shell.windows())?.contains { $0.wmClass == "screentime-card" } == false },
                      "the card ended with the agent")
    }
}
