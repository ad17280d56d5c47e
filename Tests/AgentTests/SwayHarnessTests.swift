import Harnesses
import XCTest

final class SwayHarnessTests: XCTestCase {
    func testSwayComesUpWithBusNotificationServerAndFocusedWindows() throws {
        let sway = try SwayHarness.shared()
        XCTAssertTrue(sway.busNameHasOwner("org.freedesktop.Notifications"))
        XCTAssertEqual(sway.environment["XDG_CURRENT_DESKTOP"], "sway")
        XCTAssertNil(sway.environment["DISPLAY"])
        XCTAssertTrue(try sway.swaymsg(["-t", "get_version"]).contains("1."))

        let first = try sway.openWindow(appID: "harness.first")
        let second = try sway.openWindow(appID: "harness.second", title: "Second")
        XCTAssertEqual(try sway.state(of: second)?.name, "Second")
        XCTAssertEqual(try sway.state(of: first)?.focused, false)

        try sway.focus(first)
        XCTAssertTrue(try eventually { try sway.state(of: first)?.focused == true })
        try sway.setTitle("Renamed", of: first)
        XCTAssertTrue(try eventually { try sway.state(of: first)?.name == "Renamed" })

        try sway.swaymsg(["[con_id=\(first.conID)]", "move", "scratchpad"])
        XCTAssertTrue(try eventually { try sway.state(of: first)?.inScratchpad == true })
        XCTAssertEqual(try sway.state(of: second)?.inScratchpad, false)

        sway.close(first)
        sway.close(second)
        XCTAssertTrue(try eventually { try sway.state(of: first) == nil && sway.state(of: second) == nil })
    }
}
