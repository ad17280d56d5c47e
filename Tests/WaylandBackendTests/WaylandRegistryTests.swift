import ScreenTimeCore
@testable import WaylandBackend
import XCTest

final class WaylandRegistryTests: XCTestCase {
    func testNoCompositorGivesNoGlobals() {
        let environment = ["XDG_RUNTIME_DIR": NSTemporaryDirectory(), "WAYLAND_DISPLAY": "screentime-no-such-display"]
        XCTAssertEqual(WaylandRegistry.globals(environment: environment), [])
    }
}
