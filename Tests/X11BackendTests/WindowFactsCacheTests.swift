import Foundation
import ScreenTimeCore
import Harnesses
@testable import X11Backend
import XCTest

/// The connection's cache of stable window facts, seen through the EWMH focus source (which
/// enables it) and the window control sharing its connection.
final class WindowFactsCacheTests: X11DesktopTestCase {
    var source: EWMHFocusSource!
    var control: EWMHWindowControl!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try EWMHFocusSource(connection: connection)
        control = EWMHWindowControl(connection: connection)
    }

    override func tearDown() {
        source = nil
        super.tearDown()
    }

    private func open(_ wmClass: String, _ title: String = "t", pid: Int32? = nil) throws -> TestWindow {
        let window = try client.openWindow(class: wmClass, title: title, pid: pid)
        opened.append(window)
        return window
    }

    /// Activates `window`, waits for the source to report it and returns the facts reported and
    /// how many requests the source sent meanwhile (XNextRequest before and after; draining with
    /// nothing to read sends none).
    private func switchFocus(to window: TestWindow) throws -> (facts: WindowFacts?, requests: UInt) {
        client.activate(window)
        // The window manager's switch is over (its None between two windows included) before the
        // source drains: the count is of one switch, not of where the drains fell between its steps.
        XCTAssertTrue(client.waitUntil { client.activeWindow() == window.xid }, "the window manager did not activate \(window)")
        client.syncWithWindowManager()
        let before = connection.display.nextRequestSerial
        let events = try source.events { $0.focusedWindow == window.id }
        let requests = connection.display.nextRequestSerial - before
        guard case .focused(let facts)? = events.last(where: { $0.focusedWindow == window.id }) else {
            XCTFail("no .focused(\(window)) in \(events)")
            return (nil, requests)
        }
        return (facts, requests)
    }

    /// A switch between windows already seen reads `_NET_ACTIVE_WINDOW` and the title and moves the
    /// title watch: 4 requests, 2 of them round trips. The first look at a window reads all its
    /// facts, which the same count shows (so it measures what it claims).
    func testSwitchBetweenKnownWindowsCostsFourRequests() throws {
        let alpha = try open("StCacheAlpha", "Alpha", pid: getpid())
        let beta = try open("StCacheBeta", "Beta")
        client.syncWithWindowManager()

        let cold = try switchFocus(to: alpha)
        XCTAssertGreaterThanOrEqual(cold.requests, 8, "a first look reads WM_CLASS, pid, machine, title, type, attributes")
        _ = try switchFocus(to: beta)

        for (window, wmClass) in [(alpha, "StCacheAlpha"), (beta, "StCacheBeta"), (alpha, "StCacheAlpha")] {
            let (facts, requests) = try switchFocus(to: window)
            XCTAssertLessThanOrEqual(requests, 4, "switch to \(wmClass)")
            XCTAssertEqual(facts?.wmClass, wmClass)
            XCTAssertEqual(facts?.title, window == alpha ? "Alpha" : "Beta")
            XCTAssertEqual(facts?.role, .normal)
        }
        // Cached facts are the same as fresh ones.
        let cached = try XCTUnwrap(try source.currentFocus())
        XCTAssertEqual(cached, try WindowInspector(connection: connection).freshFacts(of: Window(alpha.id)))
        XCTAssertEqual(cached.pid, getpid())
        XCTAssertEqual(cached.executable, URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)
    }

    /// The window control shares the cache: listing known windows reads the list and each title.
    func testClientWindowsOfKnownWindowsReadOnlyTheirTitles() throws {
        let one = try open("StListOne", "One")
        let two = try open("StListTwo", "Two")
        let first = try control.clientWindows()
        let before = connection.display.nextRequestSerial
        let second = try control.clientWindows()
        let requests = connection.display.nextRequestSerial - before
        XCTAssertEqual(second, first)
        XCTAssertEqual(second.first { $0.window == one.id }?.wmClass, "StListOne")
        XCTAssertEqual(second.first { $0.window == two.id }?.wmClass, "StListTwo")
        XCTAssertLessThanOrEqual(requests, UInt(1 + second.count), "the list, then one title read per window")
    }

    /// A withdrawn window may change its WM_CLASS (ICCCM): it leaves `_NET_CLIENT_LIST` and comes
    /// back, which makes the cache forget. While it stays managed, the cache is really in use.
    func testWithdrawnAndRemappedWindowIsReadAfresh() throws {
        let window = try open("StBefore")
        XCTAssertEqual(try control.facts(of: window.id).wmClass, "StBefore")

        client.setClass(window, class: "StChangedWhileMapped", instance: "x")
        client.syncWithWindowManager()
        XCTAssertEqual(try control.facts(of: window.id).wmClass, "StBefore", "the cache was not used")

        try client.withdraw(window)
        client.setClass(window, class: "StAfter", instance: "stafter")
        try client.remap(window)
        let facts = try control.facts(of: window.id)
        XCTAssertEqual(facts.wmClass, "StAfter")
        XCTAssertEqual(facts.wmInstance, "stafter")
    }

    /// A destroyed window's id given to a new window: the new one's facts are read. The X server
    /// gives a new client the lowest free client slot, so a client connecting right after one left
    /// gets its id range back, and Xlib hands out the same first window id (an app restarting).
    func testReusedWindowIDGetsTheNewWindowsFacts() throws {
        var first: TestWindowClient? = try TestWindowClient()
        let old = try XCTUnwrap(first).openWindow(class: "StOldOwner", title: "Old")
        XCTAssertEqual(try control.facts(of: old.id).wmClass, "StOldOwner")
        XCTAssertEqual(connection.windowFacts.count, 1)
        first = nil  // disconnects: the server destroys its window
        XCTAssertTrue(client.waitUntil(timeout: 5) { !self.client.clientList().contains(old.xid) })

        let second = try TestWindowClient()
        let new = try second.openWindow(class: "StNewOwner", title: "New")
        XCTAssertEqual(new.id, old.id, "the X server did not reuse the id: the test proves nothing")
        let facts = try control.facts(of: new.id)
        XCTAssertEqual(facts.wmClass, "StNewOwner")
        XCTAssertEqual(facts.title, "New")
    }

    /// A window gone at the moment of reading is forgotten, and reported as gone.
    func testGoneWindowIsForgotten() throws {
        let window = try open("StGone")
        _ = try control.facts(of: window.id)
        XCTAssertEqual(connection.windowFacts.count, 1)
        client.close(window)
        opened.removeAll { $0 == window }
        XCTAssertThrowsError(try control.facts(of: window.id)) { error in
            XCTAssertTrue((error as? X11Error)?.isWindowGone == true, "\(error)")
        }
        XCTAssertEqual(connection.windowFacts.count, 0)
    }

    /// Without a component draining the root's events (no EWMH focus source), nothing is cached.
    func testCacheIsOffUntilEnabled() throws {
        let other = try X11Connection()
        defer { other.close() }
        let window = try open("StUncached")
        XCTAssertEqual(try EWMHWindowControl(connection: other).facts(of: window.id).wmClass, "StUncached")
        XCTAssertFalse(other.windowFacts.isEnabled)
        XCTAssertEqual(other.windowFacts.count, 0)
    }
}

private extension WindowInspector {
    /// Every fact read from the server, bypassing the cache.
    func freshFacts(of window: Window) throws -> WindowFacts {
        let stable = try stableFacts(of: window)
        return WindowFacts(window: window.id, wmClass: stable.wmClass, wmInstance: stable.wmInstance,
                           title: try title(of: window), pid: stable.pid, executable: stable.executable, role: stable.role)
    }
}
