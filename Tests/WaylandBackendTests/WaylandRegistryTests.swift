import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend
import XCTest

final class WaylandRegistryTests: XCTestCase {
    func testSwayOffersTheGlobalsTheProvidersUse() throws {
        let sway = try SwayHarness.shared()
        let globals = WaylandRegistry.globals(environment: sway.environment)
        for name in [DesktopSelection.foreignToplevelGlobal, DesktopSelection.gammaGlobal,
                     DesktopSelection.kdeIdleGlobal, "wl_seat", "wl_output"] {
            XCTAssertTrue(globals.contains(name), "\(name) missing from \(globals.sorted())")
        }
    }

    func testNoCompositorGivesNoGlobals() {
        let environment = ["XDG_RUNTIME_DIR": NSTemporaryDirectory(), "WAYLAND_DISPLAY": "screentime-no-such-display"]
        XCTAssertEqual(WaylandRegistry.globals(environment: environment), [])
    }
}
