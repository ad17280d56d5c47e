import Foundation
import ScreenTimeCore
import Harnesses
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

    /// The X server dying must surface as `connectionLost`, never exit(1): here the agent's
    /// poll loop reads events first.
    func testServerGoingAwayMakesDrainEventsThrowConnectionLost() throws {
        let server = try ThrowawayXServer()
        let connection = try server.connect()
        let focus = try EWMHFocusSource(connection: connection)
        let polling = try PollingFocusSource(connection: connection)
        var idle: X11IdleWatch? = try X11IdleWatch(connection: connection, threshold: 60)
        XCTAssertEqual(try focus.drainEvents(), [])

        server.kill()

        let lost = X11Error.connectionLost(display: server.display)
        XCTAssertThrowsError(try focus.drainEvents()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertTrue(connection.isConnectionLost)
        XCTAssertThrowsError(try focus.drainEvents()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertThrowsError(try polling.drainEvents()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertThrowsError(try idle?.drainEvents()) { XCTAssertEqual($0 as? X11Error, lost) }
        connection.close()
        idle = nil  // its alarm dies with the connection: nothing is sent on the closed display
        try assertOtherConnectionsCarryOn()
    }

    /// Same, when the first call after the server died sends a request (idle time, input focus).
    func testServerGoingAwayMakesRequestsThrowConnectionLost() throws {
        let server = try ThrowawayXServer()
        let connection = try server.connect()
        let idle = try X11IdleWatch(connection: connection, threshold: 60, mechanism: .polling)
        let polling = try PollingFocusSource(connection: connection)
        let control = EWMHWindowControl(connection: connection)

        server.kill()

        let lost = X11Error.connectionLost(display: server.display)
        XCTAssertThrowsError(try idle.idleSeconds()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertThrowsError(try polling.drainEvents()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertThrowsError(try control.clientWindows()) { XCTAssertEqual($0 as? X11Error, lost) }
        XCTAssertThrowsError(try WMCapabilities.probe(connection)) { XCTAssertEqual($0 as? X11Error, lost) }
        connection.close()
        try assertOtherConnectionsCarryOn()
    }

    private func assertOtherConnectionsCarryOn() throws {
        _ = try DesktopHarness.shared()
        let other = try X11Connection()
        XCTAssertFalse(other.isConnectionLost)
        XCTAssertNoThrow(try X11IdleWatch(connection: other, threshold: 60).idleSeconds())
    }
}
