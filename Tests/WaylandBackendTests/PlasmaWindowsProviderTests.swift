import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend
import XCTest

/// On a real KWin 5.27 (virtual output), with weston demo windows; the test process is granted
/// the privileged global through a desktop entry, as install.sh grants it to the agent.
final class PlasmaWindowsProviderTests: XCTestCase {
    private var kwin: KWinHarness!
    private var opened: [Process] = []
    private var events: [FocusEvent] = []
    static let flower = "org.freedesktop.weston.flower"
    static let clickdot = "org.freedesktop.weston.wayland-clickdot"

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
        guard !WaylandRegistry.globals(environment: kwin.environment).contains(DesktopSelection.plasmaWindowsGlobal) else { return }
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try kwin.grantWaylandInterfaces([DesktopSelection.plasmaWindowsGlobal], to: exe, id: "screentime-tests")
        // KWin reads its service cache again when it notices the rebuild.
        XCTAssertTrue(eventually { WaylandRegistry.globals(environment: self.kwin.environment).contains(DesktopSelection.plasmaWindowsGlobal) },
                      "KWin did not grant \(DesktopSelection.plasmaWindowsGlobal) to \(exe)")
    }

    func testWithoutADesktopEntryKWinHidesTheGlobal() throws {
        let plain = WaylandRegistry.globals(environment: kwin.environment)
        XCTAssertTrue(plain.contains(DesktopSelection.plasmaWindowsGlobal), "granted in setUp")
        let info = Process()
        info.executableURL = URL(fileURLWithPath: try DesktopHarness.which("wayland-info"))
        info.environment = kwin.environment
        let out = Pipe()
        info.standardOutput = out
        try info.run()
        let probe = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        info.waitUntilExit()
        XCTAssertTrue(probe.contains("wl_compositor"), probe)
        XCTAssertFalse(probe.contains(DesktopSelection.plasmaWindowsGlobal), "wayland-info has no desktop entry granting it")
    }

    override func tearDown() {
        for window in opened { try? kwin.closeWindow(window) }
        opened = []
    }

    private func open(_ program: String) throws -> Process {
        let window = try kwin.openWindow(program)
        opened.append(window)
        return window
    }

    private func connect() throws -> PlasmaWindowsProvider {
        let provider = try PlasmaWindowsProvider(environment: kwin.environment)
        provider.onFocus = { [unowned self] in events.append($0) }
        addTeardownBlock { provider.close() }
        return provider
    }

    /// Pumps until a `.focused` event names `appID`; returns its facts.
    private func focusedEvent(_ appID: String, on provider: PlasmaWindowsProvider) throws -> WindowFacts? {
        try provider.focusedEvent(in: { events }, where: { $0.wmClass == appID })
    }

    func testCurrentFocusHasTheAppIDAndThePid() throws {
        let flower = try open("weston-flower")
        try kwin.activate(pid: flower.processIdentifier)
        let provider = try connect()
        let facts = try XCTUnwrap(try provider.currentFocus())
        XCTAssertEqual(facts.wmClass, Self.flower)
        XCTAssertEqual(facts.pid, flower.processIdentifier)
        XCTAssertEqual(facts.executable, "weston-flower", "the pid gives the /proc identity")
        XCTAssertEqual(facts.role, .normal)
    }

    func testFocusEventsFollowActivation() throws {
        let flower = try open("weston-flower")
        let provider = try connect()
        let clickdot = try open("weston-clickdot")
        try kwin.activate(pid: clickdot.processIdentifier)
        let toClickdot = try XCTUnwrap(try focusedEvent(Self.clickdot, on: provider), "\(events)")
        XCTAssertEqual(toClickdot.pid, clickdot.processIdentifier)

        events = []
        try kwin.activate(pid: flower.processIdentifier)
        XCTAssertNotNil(try focusedEvent(Self.flower, on: provider), "\(events)")
        XCTAssertFalse(events.contains(.focused(nil)), "one event per switch: \(events)")
    }

    func testMinimizeMinimizesOnlyTheAppsWindowsWithoutWaiting() throws {
        let flower = try open("weston-flower")
        let clickdot = try open("weston-clickdot")
        try kwin.activate(pid: flower.processIdentifier)
        let provider = try connect()
        try provider.minimize(AppID(Self.flower)) { AppID($0.wmClass ?? "") }
        var windows: [KWinHarness.Window] = []
        XCTAssertTrue(eventually {
            windows = (try? kwin.windows()) ?? []
            return windows.first { $0.pid == flower.processIdentifier }?.minimized == true
        }, "\(windows)")
        XCTAssertEqual(windows.first { $0.pid == clickdot.processIdentifier }?.minimized, false)
        XCTAssertTrue(try provider.pump { events.contains { if case .focused(let f) = $0 { return f?.wmClass != Self.flower }; return false } },
                      "focus left the minimized window: \(events)")
    }

    func testClosedWindowsLeaveTheTable() throws {
        let flower = try open("weston-flower")
        try kwin.activate(pid: flower.processIdentifier)
        let provider = try connect()
        try kwin.closeWindow(flower)
        opened.removeAll { $0 === flower }
        XCTAssertTrue(try provider.pump { (try? provider.currentFocus())??.pid != flower.processIdentifier },
                      "the closed window is still focused")
        var asked: [Int32?] = []
        try provider.minimize(AppID(Self.flower)) { asked.append($0.pid); return AppID($0.wmClass ?? "") }
        XCTAssertFalse(asked.contains(flower.processIdentifier), "a closed window was considered: \(asked)")
    }
}
