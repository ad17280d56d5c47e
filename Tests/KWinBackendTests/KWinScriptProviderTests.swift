import Foundation
import KWinBackend
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The KWin script provider on a real KWin 5.27 (virtual output): activations come back with the
/// windows' app ids and pids, and a minimize reaches exactly the app's windows.
final class KWinScriptProviderTests: XCTestCase {
    private var kwin: KWinHarness!
    private var bus: BusConnection!
    private var provider: KWinScriptProvider!
    private var events: [FocusEvent] = []

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
        bus = try BusConnection(address: kwin.busAddress)
    }

    override func tearDown() {
        provider?.close()
        bus?.close()
    }

    private func start() throws {
        provider = try KWinScriptProvider(bus: bus, runtimeDirectory: kwin.root.path, now: Date.init)
        provider.onFocus = { [unowned self] in events.append($0) }
    }

    /// Runs the agent's part of the loop (the bus) until `condition` holds, for at most `timeout`.
    private func pump(_ timeout: TimeInterval = 5, until condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            var entry = pollfd(fd: bus.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if !bus.hasQueuedIncoming { _ = poll(&entry, 1, 20) }
            try bus.dispatchPending()
            bus.expireOverdueReplies()
        }
        return try condition()
    }

    private var lastFocused: WindowFacts?? {
        for event in events.reversed() { if case .focused(let facts) = event { return facts } }
        return nil
    }

    func testCurrentFocusThenEachActivationWithAppIDAndPid() throws {
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        try start()
        let first = try XCTUnwrap(try provider.currentFocus())
        XCTAssertEqual(first.wmClass, "org.freedesktop.weston.flower")
        XCTAssertEqual(first.wmInstance, "weston-flower")
        XCTAssertEqual(first.pid, flower.processIdentifier)
        XCTAssertEqual(first.executable, "weston-flower")
        XCTAssertEqual(first.role, .normal)

        let clickdot = try kwin.openWindow("weston-clickdot")
        defer { try? kwin.closeWindow(clickdot) }
        XCTAssertTrue(try pump { lastFocused??.wmClass == "org.freedesktop.weston.wayland-clickdot" }, "events: \(events)")
        XCTAssertEqual(lastFocused??.pid, clickdot.processIdentifier)
        XCTAssertNotEqual(lastFocused??.window, first.window)
    }

    /// An X client on KWin's XWayland is named by its X class and instance (which KWin's
    /// scripting API gives lower-cased: `resourceClass`), and minimized like any other window.
    func testXWaylandWindowsAreNamedByTheirXClassAndMinimized() throws {
        try start()
        _ = try provider.currentFocus()
        let xterm = try kwin.openXWindow(xClass: "StBrowser", instance: "stbrowser-docs")
        defer { try? kwin.closeWindow(xterm) }
        XCTAssertTrue(try pump { lastFocused??.pid == xterm.processIdentifier }, "events: \(events)")
        let facts = try XCTUnwrap(lastFocused ?? nil)
        XCTAssertEqual(facts.wmClass, "stbrowser")
        XCTAssertEqual(facts.wmInstance, "stbrowser-docs")
        XCTAssertEqual(facts.executable, "xterm")
        try provider.minimize(AppID("stbrowser")) { AppID($0.wmClass ?? "") }
        XCTAssertTrue(try pump { try kwin.windows().first { $0.pid == xterm.processIdentifier }?.minimized == true })
    }

    /// dunst's layer-shell surface is a normal window to KWin 5.27; it counts as the shell's, so
    /// it is never minimized.
    func testANotificationDaemonsSurfaceIsTheShellsAndNeverMinimized() throws {
        try kwin.ensureNotificationServer()
        let notifications = try BusConnection(address: kwin.busAddress)
        defer { notifications.close() }
        let shown = try notifications.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                           interface: "org.freedesktop.Notifications", method: "Notify",
                                           arguments: [.string("test"), .uint32(0), .string(""), .string("A notice"), .string(""),
                                                       .strings([]), .vardict([:]), .int32(0)])
        defer {
            _ = try? notifications.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                        interface: "org.freedesktop.Notifications", method: "CloseNotification",
                                        arguments: [shown.first ?? .uint32(0)])
        }
        XCTAssertTrue(eventually { (try? self.kwin.windows().contains { $0.resourceClass == "dunst" }) == true },
                      "dunst shows its notification on KWin: \((try? kwin.windows()) ?? [])")
        try start()
        _ = try provider.currentFocus()
        try provider.minimize(AppID("dunst")) { AppID($0.role == .shell ? "" : $0.wmClass ?? "") }
        XCTAssertNil(provider.nextDeadline(after: Date()), "no minimize script was loaded for it")
        try provider.minimize(AppID("dunst")) { AppID($0.wmClass ?? "") }
        XCTAssertNil(provider.nextDeadline(after: Date()), "shell windows are never minimized, whatever they are named")
    }

    func testTitlesOnlyWhereATitleRuleMayApply() throws {
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        try start()
        provider.needsTitle = { _ in false }
        XCTAssertEqual(try provider.currentFocus()?.title, "")
        provider.needsTitle = { $0.wmClass == "org.freedesktop.weston.flower" }
        provider.titleRulesChanged()
        guard case .titleChanged(let facts) = try XCTUnwrap(events.last) else { return XCTFail("\(events)") }
        XCTAssertEqual(facts.title, "Flower")
    }

    func testTitleChangesOfTheFocusedWindowOnlyWhereATitleRuleMayApply() throws {
        let terminal = try kwin.openTerminal()
        defer { try? kwin.closeWindow(terminal.process) }
        try start()
        provider.needsTitle = { $0.wmClass == "org.freedesktop.weston.wayland-terminal" }
        XCTAssertEqual(try provider.currentFocus()?.wmClass, "org.freedesktop.weston.wayland-terminal")
        try kwin.setTitle("Cat videos - Tube", of: terminal)
        XCTAssertTrue(try pump {
            if case .titleChanged(let facts) = events.last { return facts.title == "Cat videos - Tube" }
            return false
        }, "events: \(events)")

        // Without a title rule for it, a rename is nobody's business.
        provider.needsTitle = { _ in false }
        let seen = events.count
        try kwin.setTitle("Bank statement", of: terminal)
        XCTAssertTrue(eventually {
            (try? self.kwin.windows().first { $0.pid == terminal.process.processIdentifier })??.caption == "Bank statement"
        }, "KWin has the new title")
        XCTAssertFalse(try pump(0.5) { events.count > seen }, "events: \(events)")
    }

    func testMinimizeReachesEveryWindowOfTheAppAndNoOther() throws {
        let flowers = [try kwin.openWindow("weston-flower"), try kwin.openWindow("weston-flower")]
        let clickdot = try kwin.openWindow("weston-clickdot")
        defer { for window in flowers + [clickdot] { try? kwin.closeWindow(window) } }
        try start()
        _ = try provider.currentFocus()
        let identify = { (facts: WindowFacts) in AppID(facts.wmClass ?? "") }
        try provider.minimize(AppID("org.freedesktop.weston.flower"), identify: identify)
        let flowerPids = Set(flowers.map(\.processIdentifier))
        XCTAssertTrue(try pump {
            let windows = try kwin.windows()
            return windows.filter { flowerPids.contains($0.pid) }.allSatisfy(\.minimized) && provider.minimizedCount == 2
        }, "windows: \((try? kwin.windows()) ?? [])")
        XCTAssertEqual(try kwin.windows().first { $0.pid == clickdot.processIdentifier }?.minimized, false)
        XCTAssertNil(provider.lastMinimizeError)

        // The one-off script unloads itself after each minimize, so the next one loads again.
        XCTAssertTrue(try pump { !(try isLoaded("screentime-minimize")) })
        try provider.minimize(AppID("org.freedesktop.weston.wayland-clickdot"), identify: identify)
        XCTAssertTrue(try pump { try kwin.windows().first { $0.pid == clickdot.processIdentifier }?.minimized == true })
    }

    /// A minimize script that never reports (here: one KWin cannot parse) is given up at its
    /// deadline, so the next minimize loads the script again and works.
    func testAMinimizeScriptThatNeverReportsIsGivenUpAndTheNextMinimizeWorks() throws {
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        try start()
        _ = try provider.currentFocus()
        let script = kwin.root.appendingPathComponent("screentime-kwin-minimize.js")
        let good = try String(contentsOf: script, encoding: .utf8)
        try "this is not JavaScript (".write(to: script, atomically: true, encoding: .utf8)
        let flowerApp = AppID("org.freedesktop.weston.flower")
        let identify = { (facts: WindowFacts) in AppID(facts.wmClass ?? "") }
        try provider.minimize(flowerApp, identify: identify)
        let deadline = try XCTUnwrap(provider.nextDeadline(after: Date()), "a loaded script has a deadline")
        XCTAssertFalse(try pump(0.5) { provider.minimizeScriptsDone > 0 })
        try provider.handleDeadline(now: deadline)
        XCTAssertEqual(provider.lastMinimizeError?.contains("did not report"), true, provider.lastMinimizeError ?? "")
        XCTAssertNil(provider.nextDeadline(after: Date()))

        try good.write(to: script, atomically: true, encoding: .utf8)
        XCTAssertTrue(try pump { !(try isLoaded("screentime-minimize")) }, "the broken script is unloaded")
        try provider.minimize(flowerApp, identify: identify)
        XCTAssertTrue(try pump { provider.minimizeScriptsDone == 1 })
        XCTAssertEqual(try kwin.windows().first { $0.pid == flower.processIdentifier }?.minimized, true)
        XCTAssertNil(provider.lastMinimizeError)
    }

    /// Prints the minimize round trip (load the one-off script, run it, hand it the targets, its
    /// report back), each checked in KWin's own window state.
    func testMinimizeRoundTripFigures() throws {
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        try start()
        _ = try provider.currentFocus()
        var milliseconds: [Double] = []
        for _ in 0..<20 {
            try kwin.activate(pid: flower.processIdentifier)
            XCTAssertTrue(try pump { try kwin.windows().first { $0.pid == flower.processIdentifier }?.minimized == false })
            let done = provider.minimizeScriptsDone
            let start = ContinuousClock.now
            try provider.minimize(AppID("org.freedesktop.weston.flower")) { AppID($0.wmClass ?? "") }
            XCTAssertTrue(try pump { provider.minimizeScriptsDone > done })
            let elapsed = (ContinuousClock.now - start).components
            milliseconds.append(Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15)
            XCTAssertEqual(try kwin.windows().first { $0.pid == flower.processIdentifier }?.minimized, true)
        }
        let sorted = milliseconds.sorted()
        print(String(format: "KWin minimize round trip over %d runs: median %.1f ms, 90th percentile %.1f ms, max %.1f ms",
                     sorted.count, sorted[sorted.count / 2], sorted[sorted.count * 9 / 10], sorted.last ?? 0))
    }

    func testCloseUnloadsTheScript() throws {
        try start()
        XCTAssertTrue(try isLoaded("screentime-focus"))
        provider.close()
        XCTAssertTrue(try pump { !(try isLoaded("screentime-focus")) })
    }

    func testKWinLeavingTheBusIsReportedAndANewProviderFollowsTheNewKWin() throws {
        try start()
        _ = try provider.currentFocus()
        try kwin.restartCompositor()
        XCTAssertTrue(try pump { provider.hasBufferedInput }, "the provider wants the loop to hear of it")
        XCTAssertThrowsError(try provider.handleReadable()) { XCTAssertEqual($0 as? KWinError, .kwinLeft) }
        provider.close()

        try start()
        _ = try provider.currentFocus()
        let flower = try kwin.openWindow("weston-flower")
        defer { try? kwin.closeWindow(flower) }
        XCTAssertTrue(try pump { lastFocused??.pid == flower.processIdentifier }, "events: \(events)")
    }

    private func isLoaded(_ name: String) throws -> Bool {
        try kwin.callKWin(path: "/Scripting", interface: "org.kde.kwin.Scripting", method: "isScriptLoaded",
                          arguments: [.string(name)]).first?.boolValue == true
    }
}
