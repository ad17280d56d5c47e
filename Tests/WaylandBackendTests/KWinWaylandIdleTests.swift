import Foundation
import ScreenTimeCore
import TestSupport
import WaylandBackend
import XCTest

/// The Wayland idle provider on a real KWin 5.27, which offers `ext_idle_notifier_v1`. The virtual
/// output has no input to fake, so only going idle is checked here (coming back: on sway).
final class KWinWaylandIdleTests: XCTestCase {
    func testKWinIdleComesFromExtIdleNotify() throws {
        let kwin = try KWinHarness.shared()
        let provider = try WaylandIdleProvider(environment: kwin.environment, threshold: 0.3)
        defer { provider.close() }
        XCTAssertEqual(provider.providerName, "Wayland idle (ext_idle_notifier_v1)")
        var transitions: [IdleTransition] = []
        provider.onIdle = { transitions.append($0) }
        XCTAssertTrue(try provider.pump { !transitions.isEmpty }, "no idle from KWin")
        XCTAssertEqual(transitions.first?.isActive, false)
    }
}
