import Foundation
import I3IPCBackend
import ScreenTimeCore
import Harnesses
import XCTest

/// The same client against a real i3 4.22 on X11 (which ignores iconify requests).
final class I3IPCProviderOnI3Tests: XCTestCase {
    private var i3: I3Harness!
    private var windows: TestWindowClient!
    private var provider: I3IPCProvider!
    private var driver: ProviderDriver!

    override func setUpWithError() throws {
        i3 = try I3Harness()
        windows = try TestWindowClient(display: i3.display)
        provider = try I3IPCProvider(environment: i3.environment)
        driver = try ProviderDriver(provider)
    }

    override func tearDown() {
        provider?.close()
        windows = nil
        i3?.stop()
    }



    func testFocusEventsNameTheXClassAndInstanceAndMinimizeUsesTheScratchpad() throws {
        provider.needsTitle = { _ in true }
        _ = try windows.openWindow(class: "StKeep", instance: "stkeep", title: "keep")
        try driver.pump { driver.lastFocus??.wmClass == "StKeep" }
        _ = try windows.openWindow(class: "StGame", instance: "stgame", title: "one")
        try driver.pump { driver.lastFocus??.title == "one" }
        XCTAssertEqual(driver.lastFocus??.wmClass, "StGame")
        XCTAssertEqual(driver.lastFocus??.wmInstance, "stgame")
        _ = try windows.openWindow(class: "StGame", instance: "stgame", title: "two")
        try driver.pump { driver.lastFocus??.title == "two" }

        try provider.minimize(AppID("stgame")) { AppID(($0.wmClass ?? "").lowercased()) }
        XCTAssertTrue(eventually {
            let states = (try? self.i3.windowStates()) ?? []
            return states.filter { $0.xClass == "StGame" }.map(\.inScratchpad) == [true, true]
        }, "\((try? i3.windowStates()) ?? [])")
        XCTAssertEqual(try i3.windowStates().first { $0.xClass == "StKeep" }?.inScratchpad, false)
        try driver.pump { driver.lastFocus??.wmClass == "StKeep" }

        // Shown again from the scratchpad: a focus event.
        try i3.i3msg(["[class=\"StGame\" title=\"one\"]", "scratchpad", "show"])
        try driver.pump { driver.lastFocus??.title == "one" }
    }
}
