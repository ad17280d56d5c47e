import Harnesses
import XCTest

final class DesktopHarnessTests: XCTestCase {
    func testDesktopComesUpWithWindowManagerBusAndNotificationServer() throws {
        let desk = try DesktopHarness.shared()
        XCTAssertTrue(desk.busNameHasOwner("org.freedesktop.Notifications"))
        XCTAssertTrue(desk.busAddress.hasPrefix("unix:"))
        let info = try desk.run("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"])
        XCTAssertTrue(info.contains("window id"), info)
    }
}
