import Foundation
import Harnesses
import X11Backend
import XCTest

/// The idle counter as `X11IdleWatch` reads it (the polling fallback and every transition rely on it).
final class IdleTimeTests: XCTestCase {
    /// Input comes from `xdotool mousemove` (XTest inside xdotool): this module links no XTest.
    func testIdleGrowsWithoutInputAndResetsOnInput() throws {
        let desk = try DesktopHarness.shared()
        let idle = try X11IdleWatch(connection: X11Connection(), threshold: 60)
        try desk.run("xdotool", ["mousemove", "100", "100"])
        let start = try idle.idleSeconds()
        usleep(300_000)
        let later = try idle.idleSeconds()
        XCTAssertGreaterThanOrEqual(later - start, 0.2, "idle went from \(start) to \(later)")
        XCTAssertGreaterThanOrEqual(later, 0.3)

        try desk.run("xdotool", ["mousemove", "200", "150"])
        XCTAssertLessThan(try idle.idleSeconds(), later, "input did not reset idle time")
        XCTAssertFalse(try idle.screenSaverActive())
    }
}
