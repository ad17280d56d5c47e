import Harnesses
import X11Backend
import XCTest

final class WMCapabilitiesTests: XCTestCase {
    func testProbesOpenboxOnXvfb() throws {
        _ = try DesktopHarness.shared()
        let capabilities = try WMCapabilities.probe(X11Connection())
        XCTAssertEqual(capabilities.windowManagerName, "Openbox")
        XCTAssertTrue(capabilities.hasEWMH)
        XCTAssertTrue(capabilities.supportsActiveWindow)
        XCTAssertTrue(capabilities.hasScreenSaverExtension)
        XCTAssertNotNil(capabilities.randrVersion)
    }
}
