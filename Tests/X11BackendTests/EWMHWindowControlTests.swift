import Foundation
import ScreenTimeCore
import Harnesses
@testable import X11Backend
import XCTest

final class EWMHWindowControlTests: X11DesktopTestCase {
    var control: EWMHWindowControl!

    override func setUpWithError() throws {
        try super.setUpWithError()
        control = EWMHWindowControl(connection: connection)
    }

    private func open(_ wmClass: String, _ title: String = "t", type: String? = nil,
                      overrideRedirect: Bool = false, netWMName: Bool = true) throws -> TestWindow {
        let window = try client.openWindow(class: wmClass, title: title, windowType: type,
                                           overrideRedirect: overrideRedirect, netWMName: netWMName)
        opened.append(window)
        return window
    }

    func testClientWindowsListsManagedWindows() throws {
        let first = try open("StListA", "List A")
        let second = try open("StListB", "List B")
        let windows = try control.clientWindows()
        XCTAssertEqual(windows.first { $0.window == first.id }?.wmClass, "StListA")
        XCTAssertEqual(windows.first { $0.window == second.id }?.title, "List B")

        client.close(second)
        opened.removeLast()
        XCTAssertTrue(try client.waitUntil { try !self.control.clientWindows().contains { $0.window == second.id } })
    }

    /// Minimizing an app lists the client windows: a title is read only where asked (an app with
    /// a title rule), so with their other facts cached the list costs one request, not one per window.
    func testClientWindowsReadTitlesOnlyWhereAsked() throws {
        let focus = try EWMHFocusSource(connection: connection)  // drains events: enables the cache
        let titled = try open("StTitled", "Read me")
        let untitled = try open("StUntitled", "Not read")
        _ = try control.clientWindows()
        let windows = try control.clientWindows { $0.wmClass == "StTitled" }
        XCTAssertEqual(windows.first { $0.window == titled.id }?.title, "Read me")
        XCTAssertEqual(windows.first { $0.window == untitled.id }?.title, "")
        XCTAssertEqual(windows.first { $0.window == untitled.id }?.wmClass, "StUntitled")
        // The least of a few tries: a change of the client list left by an earlier test empties the cache once.
        let requests = try (0..<3).map { _ in
            let before = connection.display.nextRequestSerial
            _ = try control.clientWindows { _ in false }
            return connection.display.nextRequestSerial - before
        }.min()
        XCTAssertEqual(requests, 1, "only _NET_CLIENT_LIST is read")
        withExtendedLifetime(focus) {}
    }

    func testMinimizeIconifiesTheWindow() throws {
        let target = try open("StMinimize")
        let other = try open("StStays")
        XCTAssertEqual(client.wmState(target), 1)
        XCTAssertFalse(try control.isMinimized(target.id))

        try control.minimize(target.id)
        XCTAssertTrue(client.waitUntil { self.client.wmState(target) == 3 }, "WM_STATE is \(String(describing: client.wmState(target)))")
        XCTAssertTrue(try control.isMinimized(target.id))
        XCTAssertFalse(try control.isMinimized(other.id))
    }

    func testShellWindowsAreMarkedShell() throws {
        let dock = try open("StPanel", type: "DOCK")
        let locker = try open("XScreenSaver")
        let popup = try open("StPopup", overrideRedirect: true)
        let app = try open("StApp", type: "NORMAL")
        XCTAssertEqual(try control.facts(of: dock.id).role, .shell)
        XCTAssertEqual(try control.facts(of: locker.id).role, .shell)
        XCTAssertEqual(try control.facts(of: popup.id).role, .shell)
        XCTAssertEqual(try control.facts(of: app.id).role, .normal)
    }

    func testMinimizeRefusedWhenTheWindowManagerDisallowsIt() throws {
        // Openbox gives dock windows no functions: `_NET_WM_ALLOWED_ACTIONS` lacks minimize.
        let dock = try open("StDock", type: "DOCK")
        XCTAssertThrowsError(try control.minimize(dock.id)) { error in
            XCTAssertEqual(error as? X11Error, .actionNotAllowed(action: "_NET_WM_ACTION_MINIMIZE", window: dock.id))
        }
    }

    func testLegacyLatin1TitleIsRead() throws {
        let window = try open("StLegacy", "Café", netWMName: false)
        XCTAssertEqual(try control.facts(of: window.id).title, "Café")
    }

    func testVanishedWindowIsATypedErrorNotACrash() throws {
        let window = try open("StGone")
        client.close(window)
        opened.removeLast()
        XCTAssertThrowsError(try control.facts(of: window.id)) { error in
            XCTAssertTrue((error as? X11Error)?.isWindowGone == true, "\(error)")
        }
        XCTAssertThrowsError(try control.minimize(window.id)) { error in
            XCTAssertTrue((error as? X11Error)?.isWindowGone == true, "\(error)")
        }
        // The connection is still good afterwards.
        XCTAssertNoThrow(try control.clientWindows())
    }

    func testActiveWindowFollowsActivation() throws {
        let window = try open("StActive")
        client.activate(window)
        XCTAssertTrue(try client.waitUntil { try self.control.activeWindow() == window.id })
    }
}
