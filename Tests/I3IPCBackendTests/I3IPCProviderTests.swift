import Foundation
import I3IPCBackend
import ScreenTimeCore
import TestSupport
import UnixSocket
import XCTest

/// Against a real sway 1.7, headless.
final class I3IPCProviderTests: XCTestCase {
    private var sway: SwayHarness!
    private var provider: I3IPCProvider!
    private var events: [FocusEvent] = []
    private var opened: [SwayHarness.Window] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
        provider = try I3IPCProvider(environment: sway.environment)
        provider.onFocus = { [unowned self] in events.append($0) }
    }

    override func tearDown() {
        provider?.close()
        for window in opened { sway.close(window) }
    }

    private func open(_ appID: String, title: String? = nil) throws -> SwayHarness.Window {
        let window = try sway.openWindow(appID: appID, title: title)
        opened.append(window)
        return window
    }

    /// Runs the provider's part of the agent's loop until `condition` holds (at most 5 s).
    private func pump(until condition: () throws -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(5)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("not within 5 s; events: \(events)", file: file, line: line) }
            var entry = pollfd(fd: provider.pollDescriptor, events: Int16(POLLIN) | (provider.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0)
            if provider.hasBufferedInput || poll(&entry, 1, 20) > 0 { try provider.handleReadable() }
        }
    }

    private var lastFocus: WindowFacts?? {
        for event in events.reversed() { if case .focused(let facts) = event { return .some(facts) } }
        return nil
    }

    func testFocusEventsCarryTheAppIDAndPid() throws {
        let first = try open("org.example.First")
        try pump { lastFocus??.window == WindowID(first.conID) }
        let second = try open("org.example.Second")
        try pump { lastFocus??.window == WindowID(second.conID) }
        XCTAssertEqual(lastFocus??.wmClass, "org.example.Second")
        XCTAssertEqual(lastFocus??.pid, second.pid)
        XCTAssertEqual(lastFocus??.executable, "foot")

        try sway.focus(first)
        try pump { lastFocus??.window == WindowID(first.conID) }
        XCTAssertEqual(lastFocus??.wmClass, "org.example.First")
        XCTAssertEqual(lastFocus??.pid, first.pid)
        XCTAssertEqual(lastFocus??.title, "", "titles are passed on only where a title rule may apply")
    }

    func testXWaylandWindowsAreNamedByTheirXClass() throws {
        let window = try sway.openXWaylandWindow(xClass: "ExampleX", instance: "examplex")
        opened.append(window)
        try pump { lastFocus??.window == WindowID(window.conID) }
        XCTAssertEqual(lastFocus??.wmClass, "ExampleX")
        XCTAssertEqual(lastFocus??.wmInstance, "examplex")
        XCTAssertEqual(lastFocus??.pid, window.pid)
        XCTAssertEqual(lastFocus??.executable, "xterm")
    }

    func testCurrentFocusComesFromTheTreeReadAtConnect() throws {
        let window = try open("org.example.Already")
        let late = try I3IPCProvider(environment: sway.environment)
        defer { late.close() }
        let focus = try late.currentFocus()
        XCTAssertEqual(focus?.window, WindowID(window.conID))
        XCTAssertEqual(focus?.wmClass, "org.example.Already")
        XCTAssertEqual(focus?.pid, window.pid)
    }

    func testTitleChangeOfTheFocusedWindowWhereTitlesAreNeeded() throws {
        provider.needsTitle = { $0.wmClass == "org.example.Titled" }
        let window = try open("org.example.Titled", title: "Inbox")
        try pump { lastFocus??.title == "Inbox" }
        try sway.setTitle("Inbox (3)", of: window)
        try pump {
            if case .titleChanged(let facts) = events.last { return facts.title == "Inbox (3)" && facts.window == WindowID(window.conID) }
            return false
        }
    }

    func testTitleRulesChangingReportsTheFocusedTitle() throws {
        let window = try open("org.example.Later", title: "Report")
        try pump { lastFocus??.window == WindowID(window.conID) }
        provider.needsTitle = { _ in true }
        provider.titleRulesChanged()
        guard case .titleChanged(let facts) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(facts.title, "Report")
    }

    func testMinimizeMovesEveryWindowOfTheAppToTheScratchpadAndNoOther() throws {
        let keep = try open("org.example.Keep")
        let first = try open("org.example.Limited")
        let second = try open("org.example.Limited")
        try pump { lastFocus??.window == WindowID(second.conID) }

        try provider.minimize(AppID("org.example.limited")) { AppID(($0.wmClass ?? "").lowercased()) }
        try pump { try [first, second].allSatisfy { try sway.state(of: $0)?.inScratchpad == true } }
        XCTAssertEqual(try sway.state(of: keep)?.inScratchpad, false)
        // Focus went back to the window left: said so, as sway's events do.
        try pump { lastFocus??.window == WindowID(keep.conID) }
    }

    func testWindowBroughtBackFromTheScratchpadIsAFocusEvent() throws {
        let window = try open("org.example.Hidden")
        try pump { lastFocus??.window == WindowID(window.conID) }
        try provider.minimize(AppID("org.example.hidden")) { AppID(($0.wmClass ?? "").lowercased()) }
        try pump { try sway.state(of: window)?.inScratchpad == true && lastFocus??.window != WindowID(window.conID) }

        try sway.swaymsg(["[con_id=\(window.conID)]", "scratchpad", "show"])
        try pump { lastFocus??.window == WindowID(window.conID) }
        XCTAssertEqual(lastFocus??.wmClass, "org.example.Hidden")
    }

    func testClosingTheLastFocusedWindowReportsNoFocus() throws {
        try sway.swaymsg(["workspace", "closing"])
        defer { _ = try? sway.swaymsg(["workspace", "1"]) }
        let window = try open("org.example.Closing")
        try pump { lastFocus??.window == WindowID(window.conID) }
        sway.close(window)
        try pump { lastFocus == .some(nil) }
    }

    func testSwayGoingAwayIsAnErrorFromHandleReadable() throws {
        let own = try SwayHarness(notifications: false)
        defer { own.stop() }
        let doomed = try I3IPCProvider(environment: own.environment)
        defer { doomed.close() }
        own.stopCompositor()
        let deadline = Date().addingTimeInterval(5)
        var entry = pollfd(fd: doomed.pollDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            _ = poll(&entry, 1, 50)
            do {
                try doomed.handleReadable()
            } catch let error as UnixSocketError {
                return XCTAssertEqual(error, .closed(path: own.ipcSocket))
            }
        }
        XCTFail("no error within 5 s of sway exiting")
    }

    func testNoSocketInTheEnvironmentIsAnError() {
        XCTAssertThrowsError(try I3IPCProvider(environment: ["WAYLAND_DISPLAY": "wayland-1"]))
    }
}
