import Foundation
import ScreenTimeCore
import Harnesses
import X11Backend
import XCTest

final class PollingFocusSourceTests: X11DesktopTestCase {
    /// Opens a window and waits until openbox has focused it, so it takes no focus back later.
    private func openActive(_ wmClass: String, _ title: String) throws -> TestWindow {
        let window = try client.openWindow(class: wmClass, title: title)
        opened.append(window)
        client.activate(window)
        XCTAssertTrue(client.syncWithWindowManager(), "openbox did not answer")
        XCTAssertTrue(client.waitUntil { self.client.activeWindow() == window.xid && self.client.inputFocus() == window.xid })
        return window
    }

    /// openbox takes the focus off its frame at once when it comes up from the client (a FocusIn
    /// with detail NotifyInferior makes it fall back to another window), so the focus reaches the
    /// frame from an unmanaged window instead: openbox ignores that FocusIn (NotifyNonlinear).
    func testFindsTheClientWindowOfAFocusedFrame() throws {
        let source = try PollingFocusSource(connection: connection)
        let window = try openActive("StFramed", "Framed")
        let frame = try XCTUnwrap(client.frame(of: window))
        XCTAssertNotEqual(frame, window.xid, "openbox did not reparent the window into a frame")
        try focusUnmanagedWindow()

        client.setInputFocus(frame)
        XCTAssertEqual(client.inputFocus(), frame)
        let facts = try XCTUnwrap(source.currentFocus())
        XCTAssertEqual(facts.window, window.id)
        XCTAssertEqual(facts.wmClass, "StFramed")
        XCTAssertEqual(client.inputFocus(), frame, "the focus left the frame while the source looked")
    }

    /// Moves the focus to an override-redirect window and waits until openbox has noted that
    /// no client has it (`_NET_ACTIVE_WINDOW` None).
    private func focusUnmanagedWindow() throws {
        let unmanaged = try client.openWindow(class: "StUnmanaged", title: "Unmanaged", overrideRedirect: true)
        opened.append(unmanaged)
        client.setInputFocus(unmanaged.xid)
        XCTAssertTrue(client.syncWithWindowManager(), "openbox did not answer")
        XCTAssertEqual(client.activeWindow(), nil, "openbox still has an active window")
        XCTAssertEqual(client.inputFocus(), unmanaged.xid)
    }

    func testFindsTheClientWindowOfAFocusedChild() throws {
        let source = try PollingFocusSource(connection: connection)
        let window = try openActive("StParent", "Parent")
        let child = client.openChild(of: window)

        client.setInputFocus(child)
        XCTAssertEqual(client.inputFocus(), child)
        XCTAssertEqual(try source.currentFocus()?.window, window.id)
    }

    func testReportsFocusAndTitleChangesWhenAsked() throws {
        let source = try PollingFocusSource(connection: connection, interval: 1)
        XCTAssertEqual(source.pollDescriptor, -1)
        let now = Date()
        XCTAssertEqual(source.nextPoll(after: now), now.addingTimeInterval(1))

        let first = try client.openWindow(class: "StPollA", title: "A")
        let second = try client.openWindow(class: "StPollB", title: "B")
        opened += [first, second]
        client.activate(first)
        XCTAssertEqual(try source.events { $0.focusedWindow == first.id }.last?.focusedWindow, first.id)
        XCTAssertEqual(try source.drainEvents(), [], "an unchanged focus is reported again")

        client.setTitle(first, "A, renamed")
        let events = try source.events { if case .titleChanged = $0 { return true } else { return false } }
        guard case .titleChanged(let facts)? = events.last else { return XCTFail("no title change in \(events)") }
        XCTAssertEqual(facts.title, "A, renamed")

        client.activate(second)
        XCTAssertEqual(try source.events { $0.focusedWindow == second.id }.last?.focusedWindow, second.id)
    }
}
