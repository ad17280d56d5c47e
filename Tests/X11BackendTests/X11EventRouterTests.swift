import Foundation
import ScreenTimeCore
import TestSupport
import X11Backend
import XCTest

/// The focus source and the idle watch share one connection: whichever drains first reads the
/// socket, and each still gets its own events.
final class X11EventRouterTests: XCTestCase {
    func testFocusEventsReadByTheIdleWatchStillReachTheFocusSource() throws {
        let desk = try DesktopHarness.shared()
        let client = try TestWindowClient()
        let connection = try X11Connection()
        defer { connection.close() }
        try PointerNudge.move(on: desk)
        let focus = try EWMHFocusSource(connection: connection)
        let idle = try X11IdleWatch(connection: connection, threshold: 0.3)
        let window = try client.openWindow(class: "StRouted", title: "routed")
        defer { client.close(window) }
        client.activate(window)

        // Only the idle watch drains until the focus source holds something.
        let deadline = Date().addingTimeInterval(3)
        var transitions: [IdleTransition] = []
        while focus.nextPoll(after: Date()).map({ $0 > Date() }) ?? true, Date() < deadline {
            transitions += try idle.drainEvents()
            usleep(10_000)
        }
        let events = try focus.events { $0.focusedWindow == window.id }
        XCTAssertTrue(events.contains { $0.focusedWindow == window.id }, "no .focused(\(window)) in \(events)")

        // And the alarm events the focus source's drains read reach the idle watch.
        while transitions.isEmpty, Date() < deadline.addingTimeInterval(1) {
            _ = try focus.drainEvents()
            transitions += try idle.drainEvents()
            usleep(10_000)
        }
        guard case .becameIdle? = transitions.first else { return XCTFail("expected .becameIdle, got \(transitions)") }
    }
}
