import Foundation
import ScreenTimeCore
import Harnesses
@testable import X11Backend
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
        var transitions: [IdleTransition] = []
        try Wait.poll(timeout: 3, every: 0.01) {
            guard focus.nextPoll(after: Date()).map({ $0 > Date() }) ?? true else { return true }
            transitions += try idle.drainEvents()
            return false
        }
        let events = try focus.events { $0.focusedWindow == window.id }
        XCTAssertTrue(events.contains { $0.focusedWindow == window.id }, "no .focused(\(window)) in \(events)")

        // And the alarm events the focus source's drains read reach the idle watch.
        try Wait.poll(timeout: 2, every: 0.01) {
            if !transitions.isEmpty { return true }
            _ = try focus.drainEvents()
            transitions += try idle.drainEvents()
            return false
        }
        guard case .becameIdle? = transitions.first else { return XCTFail("expected .becameIdle, got \(transitions)") }
    }

    /// After a poll, the drains of one wakeup (the idle watch's, then the focus source's) read the
    /// socket once between them, not once each: what arrives in between waits for the next poll,
    /// which the socket being readable again brings at once.
    func testSocketIsReadOncePerPoll() throws {
        _ = try DesktopHarness.shared()
        let client = try TestWindowClient()
        let connection = try X11Connection()
        defer { connection.close() }
        try connection.watchRootProperties()
        let rootChanges = RootChanges(root: connection.root)
        connection.events.subscribe(rootChanges)
        defer { connection.events.unsubscribe(rootChanges) }

        connection.socketPolled()
        try connection.events.dispatchPending()
        rootChanges.count = 0
        client.setActiveWindowProperty(client.activeWindow() ?? 0)  // the same value: a PropertyNotify
        XCTAssertTrue(Self.waitReadable(connection.fileDescriptor), "the PropertyNotify did not arrive")
        XCTAssertEqual(try connection.events.dispatchPending(), 0, "the socket was read already since the poll")
        XCTAssertEqual(rootChanges.count, 0)

        connection.socketPolled()
        XCTAssertGreaterThan(try connection.events.dispatchPending(), 0)
        XCTAssertEqual(rootChanges.count, 1)
    }

    /// Counts the PropertyNotify events on the root.
    private final class RootChanges: X11EventSubscriber {
        let root: Window
        var count = 0
        init(root: Window) { self.root = root }
        func received(_ event: XEventSummary) {
            if case .propertyChanged(let window, _, _) = event, window == root { count += 1 }
        }
    }

    private static func waitReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 2000) == 1
    }
}
