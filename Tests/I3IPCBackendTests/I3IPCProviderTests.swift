import Foundation
import I3IPCBackend
import ScreenTimeCore
import Harnesses
import UnixSocket
import XCTest

/// Against a real sway 1.7, headless.
final class I3IPCProviderTests: XCTestCase {
    private var sway: SwayHarness!
    private var provider: I3IPCProvider!
    private var driver: ProviderDriver!
    private var opened: [SwayHarness.Window] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
        provider = try I3IPCProvider(environment: sway.environment)
        driver = try ProviderDriver(provider)
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



    func testFocusEventsCarryTheAppIDAndPid() throws {
        let first = try open("org.example.First")
        try driver.pump { driver.lastFocus??.window == WindowID(first.conID) }
        let second = try open("org.example.Second")
        try driver.pump { driver.lastFocus??.window == WindowID(second.conID) }
        XCTAssertEqual(driver.lastFocus??.wmClass, "org.example.Second")
        XCTAssertEqual(driver.lastFocus??.pid, second.pid)
        XCTAssertEqual(driver.lastFocus??.executable, "foot")

        try sway.focus(first)
        try driver.pump { driver.lastFocus??.window == WindowID(first.conID) }
        XCTAssertEqual(driver.lastFocus??.wmClass, "org.example.First")
        XCTAssertEqual(driver.lastFocus??.pid, first.pid)
        XCTAssertEqual(driver.lastFocus??.title, "", "titles are passed on only where a title rule may apply")
    }

    func testXWaylandWindowsAreNamedByTheirXClass() throws {
        let window = try sway.openXWaylandWindow(xClass: "ExampleX", instance: "examplex")
        opened.append(window)
        try driver.pump { driver.lastFocus??.window == WindowID(window.conID) }
        XCTAssertEqual(driver.lastFocus??.wmClass, "ExampleX")
        XCTAssertEqual(driver.lastFocus??.wmInstance, "examplex")
        XCTAssertEqual(driver.lastFocus??.pid, window.pid)
        XCTAssertEqual(driver.lastFocus??.executable, "xterm")
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
        try driver.pump { driver.lastFocus??.title == "Inbox" }
        try sway.setTitle("Inbox (3)", of: window)
        try driver.pump {
            if case .titleChanged(let facts) = driver.events.last { return facts.title == "Inbox (3)" && facts.window == WindowID(window.conID) }
            return false
        }
    }

    func testTitleRulesChangingReportsTheFocusedTitle() throws {
        let window = try open("org.example.Later", title: "Report")
        try driver.pump { driver.lastFocus??.window == WindowID(window.conID) }
        provider.needsTitle = { _ in true }
        provider.titleRulesChanged()
        guard case .titleChanged(let facts) = driver.events.last else { return XCTFail("\(driver.events)") }
        XCTAssertEqual(facts.title, "Report")
    }

    func testMinimizeMovesEveryWindowOfTheAppToTheScratchpadAndNoOther() throws {
        let keep = try open("org.example.Keep")
        let first = try open("org.example.Limited")
        let second = try open("org.example.Limited")
        try driver.pump { driver.lastFocus??.window == WindowID(second.conID) }

        try provider.minimize(AppID("org.example.limited")) { AppID(($0.wmClass ?? "").lowercased()) }
        try driver.pump { try [first, second].allSatisfy { try sway.state(of: $0)?.inScratchpad == true } }
        XCTAssertEqual(try sway.state(of: keep)?.inScratchpad, false)
        // Focus went back to the window left: said so, as sway's events do.
        try driver.pump { driver.lastFocus??.window == WindowID(keep.conID) }
    }

    func testWindowBroughtBackFromTheScratchpadIsAFocusEvent() throws {
        let window = try open("org.example.Hidden")
        try driver.pump { driver.lastFocus??.window == WindowID(window.conID) }
        try provider.minimize(AppID("org.example.hidden")) { AppID(($0.wmClass ?? "").lowercased()) }
        try driver.pump { try sway.state(of: window)?.inScratchpad == true && driver.lastFocus??.window != WindowID(window.conID) }

        try sway.swaymsg(["[con_id=\(window.conID)]", "scratchpad", "show"])
        try driver.pump { driver.lastFocus??.window == WindowID(window.conID) }
        XCTAssertEqual(driver.lastFocus??.wmClass, "org.example.Hidden")
    }

    func testClosingTheLastFocusedWindowReportsNoFocus() throws {
        try sway.swaymsg(["workspace", "closing"])
        defer { _ = try? sway.swaymsg(["workspace", "1"]) }
        let window = try open("org.example.Closing")
        try driver.pump { driver.lastFocus??.window == WindowID(window.conID) }
        sway.close(window)
        try driver.pump { driver.lastFocus == .some(nil) }
    }

    func testSwayGoingAwayIsAnErrorFromHandleReadable() throws {
        let own = try SwayHarness(notifications: false)
        defer { own.stop() }
        let doomed = try ProviderDriver(I3IPCProvider(environment: own.environment))
        defer { doomed.provider.close() }
        own.stopCompositor()
        XCTAssertEqual(try doomed.errorWhenTheCompositorGoesAway() as? UnixSocketError, .closed(path: own.ipcSocket))
    }

    func testNoSocketInTheEnvironmentIsAnError() {
        XCTAssertThrowsError(try I3IPCProvider(environment: ["WAYLAND_DISPLAY": "wayland-1"]))
    }
}
