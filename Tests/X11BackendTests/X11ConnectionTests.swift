import Foundation
import ScreenTimeCore
import TestSupport
import X11Backend
import XCTest

final class X11ConnectionTests: XCTestCase {
    func testOpensTheDesktopDisplay() throws {
        let desk = try DesktopHarness.shared()
        let connection = try X11Connection()
        XCTAssertEqual(connection.displayName, desk.display)
        XCTAssertGreaterThanOrEqual(connection.fileDescriptor, 0)
        XCTAssertFalse(connection.isConnectionLost)
        connection.close()
        connection.close()  // closing twice is harmless
    }

    func testMissingDisplayIsATypedError() {
        XCTAssertThrowsError(try X11Connection(displayName: ":4999")) { error in
            XCTAssertEqual(error as? X11Error, .cannotOpenDisplay(name: ":4999"))
        }
    }

    /// The X server dying must surface as `connectionLost` from every source, never exit(1).
    func testServerGoingAwayThrowsConnectionLost() throws {
        let server = try ThrowawayXServer()
        var opened: X11Connection?
        let deadline = Date().addingTimeInterval(5)
        while opened == nil && Date() < deadline {
            opened = try? X11Connection(displayName: server.display)
            if opened == nil { usleep(20_000) }
        }
        let connection = try XCTUnwrap(opened, "could not connect to the throwaway Xvfb")
        let focus = try EWMHFocusSource(connection: connection)
        let polling = try PollingFocusSource(connection: connection)
        let idle = try ScreenSaverIdleSource(connection: connection)
        XCTAssertEqual(try focus.drainEvents(), [])

        server.kill()

        XCTAssertThrowsError(try focus.drainEvents()) { error in
            XCTAssertEqual(error as? X11Error, .connectionLost(display: server.display))
        }
        XCTAssertTrue(connection.isConnectionLost)
        XCTAssertThrowsError(try polling.drainEvents()) { error in
            XCTAssertEqual(error as? X11Error, .connectionLost(display: server.display))
        }
        XCTAssertThrowsError(try idle.idleSeconds()) { error in
            XCTAssertEqual(error as? X11Error, .connectionLost(display: server.display))
        }
        connection.close()

        // The process and its other connections carry on.
        _ = try DesktopHarness.shared()
        let other = try X11Connection()
        XCTAssertNoThrow(try ScreenSaverIdleSource(connection: other).idleSeconds())
    }
}
