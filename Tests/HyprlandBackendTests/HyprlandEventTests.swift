@testable import HyprlandBackend
import XCTest

final class HyprlandEventTests: XCTestCase {
    func testEventLinesAsHyprlandWritesThem() {
        XCTAssertEqual(HyprlandEvent(line: "activewindowv2>>55d1c3a0f100"), .activeWindowAddress(0x55d1_c3a0_f100))
        XCTAssertEqual(HyprlandEvent(line: "activewindowv2>>"), .activeWindowAddress(nil))
        XCTAssertEqual(HyprlandEvent(line: "activewindow>>firefox,Mail, Calendar"),
                       .activeWindow(class: "firefox", title: "Mail, Calendar"))
        XCTAssertEqual(HyprlandEvent(line: "openwindow>>55d1c3a0f100,2,kitty,~/src, a title"),
                       .openWindow(0x55d1_c3a0_f100, class: "kitty", title: "~/src, a title"))
        XCTAssertEqual(HyprlandEvent(line: "closewindow>>55d1c3a0f100"), .closeWindow(0x55d1_c3a0_f100))
        XCTAssertEqual(HyprlandEvent(line: "windowtitlev2>>55d1c3a0f100,a>>b"), .windowTitle(0x55d1_c3a0_f100, title: "a>>b"))
    }

    func testUnusedAndUnreadableLinesAreSkipped() {
        XCTAssertNil(HyprlandEvent(line: "workspace>>2"))
        XCTAssertNil(HyprlandEvent(line: "windowtitle>>55d1c3a0f100"))
        XCTAssertNil(HyprlandEvent(line: "activewindowv2>>not-hex"))
        XCTAssertNil(HyprlandEvent(line: "openwindow>>55d1c3a0f100,2"))
        XCTAssertNil(HyprlandEvent(line: "no separator"))
    }
}
