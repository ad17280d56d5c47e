import Foundation
import TestSupport
import X11Backend
import XCTest

final class X11BackendTests: XCTestCase {
    func testChoosesEWMHUnderOpenbox() throws {
        _ = try DesktopHarness.shared()
        let connection = try X11Connection()
        let (source, reason) = try X11Backend.makeFocusSource(connection: connection)
        XCTAssertTrue(source is EWMHFocusSource, "chose \(source.backendName)")
        XCTAssertTrue(reason.contains("Openbox"), reason)
    }

    func testFallsBackToPollingWithoutAWindowManager() throws {
        let server = try ThrowawayXServer()
        var connection: X11Connection?
        let deadline = Date().addingTimeInterval(5)
        while connection == nil && Date() < deadline {
            connection = try? X11Connection(displayName: server.display)
            if connection == nil { usleep(20_000) }
        }
        let (source, reason) = try X11Backend.makeFocusSource(connection: XCTUnwrap(connection))
        XCTAssertTrue(source is PollingFocusSource, "chose \(source.backendName)")
        XCTAssertTrue(reason.contains("_NET_SUPPORTING_WM_CHECK"), reason)
        XCTAssertNil(try source.currentFocus(), "a bare server has no client window focused")
        connection?.close()
    }
}
