import Foundation
import Harnesses
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
        let connection = try server.connect()
        let (source, reason) = try X11Backend.makeFocusSource(connection: connection)
        XCTAssertTrue(source is PollingFocusSource, "chose \(source.backendName)")
        XCTAssertTrue(reason.contains("_NET_SUPPORTING_WM_CHECK"), reason)
        XCTAssertNil(try source.currentFocus(), "a bare server has no client window focused")
        connection.close()
    }
}
