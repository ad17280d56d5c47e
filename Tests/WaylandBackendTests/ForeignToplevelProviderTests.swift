import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend
import XCTest

/// On a real headless sway 1.7, with foot windows.
final class ForeignToplevelProviderTests: XCTestCase {
    private var sway: SwayHarness!
    private var opened: [SwayHarness.Window] = []
    private var events: [FocusEvent] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
    }

    override func tearDown() {
        opened.forEach(sway.close)
        opened = []
    }

    private func open(_ appID: String, title: String? = nil) throws -> SwayHarness.Window {
        let window = try sway.openWindow(appID: appID, title: title)
        opened.append(window)
        return window
    }

    private func connect() throws -> ForeignToplevelProvider {
        let provider = try ForeignToplevelProvider(environment: sway.environment)
        provider.onFocus = { [unowned self] in events.append($0) }
        addTeardownBlock { provider.close() }
        return provider
    }

    /// Pumps until a `.focused` event names `appID`; returns its facts.
    private func focusedEvent(_ appID: String, on provider: ForeignToplevelProvider) throws -> WindowFacts? {
        try provider.focusedEvent(in: { events }, where: { $0.wmClass == appID })
    }

    func testCurrentFocusIsTheActivatedWindow() throws {
        _ = try open("st-current", title: "Current one")
        let provider = try connect()
        let facts = try provider.currentFocus()
        XCTAssertEqual(facts?.wmClass, "st-current")
        XCTAssertEqual(facts?.title, "Current one")
        XCTAssertEqual(facts?.declaredIDs, [], "the protocol gives no pid, so no /proc identity")
    }

    func testFocusEventsFollowWindowsWithTheirAppIDs() throws {
        let alpha = try open("st-alpha")
        let provider = try connect()
        _ = try open("st-beta")
        let beta = try XCTUnwrap(try focusedEvent("st-beta", on: provider), "no focus event for st-beta in \(events)")

        events = []
        try sway.focus(alpha)
        let back = try XCTUnwrap(try focusedEvent("st-alpha", on: provider), "no focus event for st-alpha in \(events)")
        XCTAssertNotEqual(back.window, beta.window)
        XCTAssertFalse(events.contains(.focused(nil)), "a switch between windows is one event, not a moment without focus: \(events)")
    }

    func testTitleChangeOfTheFocusedWindowIsReported() throws {
        let window = try open("st-titled", title: "Before")
        let provider = try connect()
        try sway.setTitle("After — één", of: window)
        var title: String?
        XCTAssertTrue(try provider.pump {
            title = events.lazy.compactMap { event -> String? in
                if case .titleChanged(let facts) = event, facts.wmClass == "st-titled" { return facts.title }
                return nil
            }.first
            return title != nil
        }, "no title change in \(events)")
        XCTAssertEqual(title, "After — één")
    }

    func testClosingTheFocusedWindowReportsTheNextOrNone() throws {
        _ = try open("st-stays")
        let leaving = try open("st-leaving")
        let provider = try connect()
        sway.close(leaving)
        XCTAssertTrue(try provider.pump {
            events.contains { if case .focused(let facts) = $0 { return facts?.wmClass != "st-leaving" }; return false }
        }, "no focus change after closing the focused window: \(events)")
        XCTAssertNotEqual(try provider.currentFocus()?.wmClass, "st-leaving")
    }

    /// sway ignores `set_minimized` (the i3 IPC provider minimizes there): the request goes out
    /// without a protocol error, only the matching app's windows are asked, and focus is still followed.
    func testMinimizeIsSentWithoutErrorAndFocusIsStillFollowed() throws {
        let keep = try open("st-keep")
        _ = try open("st-hide")
        let provider = try connect()
        var asked: [String?] = []
        try provider.minimize(AppID("st-hide")) { facts in
            asked.append(facts.wmClass)
            return AppID(facts.wmClass ?? "")
        }
        XCTAssertTrue(asked.contains("st-hide"), "st-hide was not considered: \(asked)")
        try sway.focus(keep)
        XCTAssertNotNil(try focusedEvent("st-keep", on: provider), "focus not followed after minimize: \(events)")
    }

    func testCompositorGoneIsAnErrorNotAHang() throws {
        let own = try SwayHarness(notifications: false)
        defer { own.stop() }
        let provider = try ForeignToplevelProvider(environment: own.environment)
        own.stopCompositor()
        XCTAssertThrowsError(try provider.pump(timeout: 5) { false }) { error in
            guard case WaylandError.connectionLost = error else { return XCTFail("\(error)") }
        }
        provider.close()
        provider.close()
    }
}
