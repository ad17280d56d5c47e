@testable import GnomeShellBackend
import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The GNOME Shell provider against a real, headless GNOME Shell 43 running the project's
/// extension: focus events, minimizing, grayscale seen in the shell's own screenshots.
final class GnomeShellProviderTests: XCTestCase {
    var shell: GnomeShellHarness!
    /// The provider's connection, standing in for the agent's (it owns the agent's bus name).
    var agentBus: BusConnection!

    override func setUpWithError() throws {
        shell = try GnomeShellHarness.shared()
        agentBus = try BusConnection(address: shell.busAddress)
        XCTAssertTrue(try agentBus.requestName(AgentInterface.busName))
    }

    override func tearDown() {
        agentBus?.close()
        shell?.closeWindows()
        super.tearDown()
    }

    func makeProvider() throws -> GnomeShellProvider {
        try GnomeShellProvider(bus: agentBus, environment: shell.environment)
    }

    func testFocusEventsNameTheWindowsAppAndProcess() throws {
        let provider = try makeProvider()
        var events: [FocusEvent] = []
        provider.onFocus = { events.append($0) }
        let window = try shell.openWindow(appID: GnomeShellHarness.appWithDesktopEntry)
        try shell.pump(agentBus, "a focus event for the new window") {
            events.contains { if case .focused(let facts?) = $0 { return facts.window.rawValue == window.id } else { return false } }
        }
        guard case .focused(let facts?) = events.last(where: { if case .focused(_?) = $0 { return true } else { return false } }) else {
            return XCTFail("no focus event: \(events)")
        }
        XCTAssertEqual(facts.wmClass, GnomeShellHarness.appWithDesktopEntry)
        XCTAssertEqual(facts.pid, Int32(window.pid))
        XCTAssertEqual(facts.executable, "foot")
        XCTAssertEqual(facts.title, "", "no title rule applies: the title is not passed on")
        XCTAssertEqual(facts.declaredIDs.first, GnomeShellHarness.appWithDesktopEntry, "the shell's desktop id for the window")
        XCTAssertEqual(try provider.currentFocus()?.window.rawValue, window.id)

        let other = try shell.openWindow(appID: "org.screentime.test.other")
        try shell.pump(agentBus, "a focus event for the second window") {
            if case .focused(let facts?) = events.last { return facts.window.rawValue == other.id && facts.declaredIDs.isEmpty }
            return false
        }
    }

    func testTitleChangesReachOnlyAppsWithATitleRule() throws {
        let provider = try makeProvider()
        var events: [FocusEvent] = []
        provider.onFocus = { events.append($0) }
        provider.needsTitle = { $0.wmClass == "org.screentime.test.titled" }
        let window = try shell.openWindow(appID: "org.screentime.test.titled",
                                          command: ["sh", "-c", "printf '\\033]2;first\\007'; sleep 0.5; printf '\\033]2;second\\007'; sleep 3600"])
        try shell.pump(agentBus, "the focused window's new title") {
            events.contains { if case .titleChanged(let facts) = $0 { return facts.window.rawValue == window.id && facts.title == "second" } else { return false } }
        }
        XCTAssertEqual(try provider.currentFocus()?.title, "second")
    }

    func testMinimizeHidesEveryWindowOfTheAppAndNoOther() throws {
        let provider = try makeProvider()
        let first = try shell.openWindow(appID: "org.screentime.test.limited")
        let second = try shell.openWindow(appID: "org.screentime.test.limited")
        let bystander = try shell.openWindow(appID: "org.screentime.test.bystander")
        try provider.minimize(AppID("org.screentime.test.limited")) { AppID($0.wmClass ?? "") }
        try shell.pump(agentBus, "both windows of the app minimized") {
            let minimized = Set(((try? shell.windows()) ?? []).filter(\.minimized).map(\.id))
            return minimized.isSuperset(of: [first.id, second.id])
        }
        XCTAssertEqual(try shell.windows().first { $0.id == bystander.id }?.minimized, false)
    }

    /// Screen rows below the top bar (whose clock ticks) and the banners under it (a notice with
    /// buttons, as an earlier test's agent leaves, reaches row 121).
    static let stableRows = 200..<800

    /// Dispatches the provider's connection meanwhile, as the agent's loop would.
    func waitUntilGray() throws {
        try shell.pump(agentBus, "a gray screen", timeout: 10) {
            ((try? shell.screenshot())?.maximumChroma(rows: Self.stableRows) ?? 255) <= 2
        }
    }

    func waitUntilScreen(is before: PNGImage) throws {
        var last: PNGImage?
        do {
            try shell.waitUntil("the screen as before") {
                last = try? shell.screenshot()
                return last?.rows(Self.stableRows) == before.rows(Self.stableRows)
            }
        } catch {
            let differing = zip(before.pixels, last?.pixels ?? []).enumerated().filter { $0.element.0 != $0.element.1 }
            let rows = Set(differing.map { $0.offset / (before.width * 4) })
            XCTFail("\(differing.count) bytes differ, rows \(rows.min() ?? -1)...\(rows.max() ?? -1), first \(differing.prefix(4).map { "\($0.offset % (before.width * 4) / 4): \($0.element)" })")
            throw error
        }
    }

    func testGrayscaleGraysTheScreenAndRestoreGivesItBackPixelForPixel() throws {
        let provider = try makeProvider()
        XCTAssertEqual(provider.abilities, ScreenFilterAbilities(grayscale: true, warmth: true))
        try shell.openWindow(appID: "org.screentime.test.colour")
        let before = try shell.settledScreenshot(rows: Self.stableRows)
        XCTAssertGreaterThan(before.maximumChroma(rows: Self.stableRows), 50, "the desktop shows colour to begin with")

        XCTAssertNil(try provider.set(.grayscale, now: Date()), "the shell fades by itself")
        try waitUntilGray()
        provider.restore()
        try waitUntilScreen(is: before)
    }

    func testTheExtensionRestoresTheScreenWhenTheAgentsNameVanishes() throws {
        let provider = try makeProvider()
        try shell.openWindow(appID: "org.screentime.test.colour")
        let before = try shell.settledScreenshot(rows: Self.stableRows)
        _ = try provider.set(ColorFilter(saturation: 0, temperature: 3400), now: Date())
        try waitUntilGray()
        // The connection gone as with a SIGKILLed agent: no Restore was sent.
        agentBus.close()
        try waitUntilScreen(is: before)
    }

    /// Warmth scales blue down (and green a little) and leaves red: measured as ratios to the
    /// screen before, which hold whatever the screen shows (a dark desktop moves the means
    /// little in absolute terms: at 3400 K blue keeps 73 %, 18 levels of a mean of 66).
    func testWarmthShiftsTheScreenTowardRed() throws {
        let provider = try makeProvider()
        try shell.openWindow(appID: "org.screentime.test.colour")
        let screen = try shell.settledScreenshot(rows: Self.stableRows)
        let before = screen.meanChannels(rows: Self.stableRows)
        XCTAssertGreaterThan(before.blue, 20, "the desktop shows blue to begin with")
        _ = try provider.set(ColorFilter(temperature: 3400), now: Date())
        try shell.pump(agentBus, "a warmer screen", timeout: 10) {
            guard let after = (try? shell.screenshot())?.meanChannels(rows: Self.stableRows) else { return false }
            return after.blue < before.blue * 0.8 && after.green < before.green * 0.95 && after.red >= before.red * 0.98
        }
        provider.restore()
        try waitUntilScreen(is: screen)
    }

    func testFocusFollowsTheExtensionGoingAndComingBack() throws {
        let provider = try makeProvider()
        var events: [FocusEvent] = []
        provider.onFocus = { events.append($0) }
        let window = try shell.openWindow(appID: "org.screentime.test.returning")
        try shell.pump(agentBus, "the window focused") {
            if case .focused(let facts?) = events.last { return facts.window.rawValue == window.id } else { return false }
        }
        defer { try? shell.setExtensionEnabled(true) }
        try shell.setExtensionEnabled(false)
        try shell.pump(agentBus, "no focus while the extension is off") { events.last == .focused(nil) }
        try shell.setExtensionEnabled(true)
        try shell.pump(agentBus, "the focused window again once it is back") {
            if case .focused(let facts?) = events.last { return facts.window.rawValue == window.id } else { return false }
        }
    }

    /// `screentime display restore` starts a provider of its own, which set nothing.
    func testAnotherProvidersRestoreGivesTheScreenBack() throws {
        let provider = try makeProvider()
        try shell.openWindow(appID: "org.screentime.test.colour")
        let before = try shell.settledScreenshot(rows: Self.stableRows)
        _ = try provider.set(.grayscale, now: Date())
        try waitUntilGray()
        let cliBus = try BusConnection(address: shell.busAddress)
        try GnomeShellProvider(bus: cliBus, environment: shell.environment).close()
        try waitUntilScreen(is: before)
    }

    /// GNOME disables extensions while the screen is locked, which takes the effects away.
    func testTheFilterIsShownAgainWhenTheExtensionComesBack() throws {
        let provider = try makeProvider()
        try shell.openWindow(appID: "org.screentime.test.colour")
        let before = try shell.settledScreenshot(rows: Self.stableRows)
        _ = try provider.set(.grayscale, now: Date())
        try waitUntilGray()
        defer { try? shell.setExtensionEnabled(true) }
        try shell.setExtensionEnabled(false)
        try waitUntilScreen(is: before)
        try shell.setExtensionEnabled(true)
        try waitUntilGray()
        provider.restore()
        try waitUntilScreen(is: before)
    }

    func testWithoutTheExtensionTheReasonSaysWhatToDo() throws {
        let home = shell.root.appendingPathComponent("user-\(UUID().uuidString.prefix(8))")
        let environment = ["HOME": home.path, "XDG_DATA_DIRS": home.appendingPathComponent("share").path]
        XCTAssertTrue(GnomeShellProvider.unavailableReason(environment: environment).contains("not installed: run ./install.sh"))

        let folder = home.appendingPathComponent(".local/share/gnome-shell/extensions/\(GnomeShellHarness.extensionUUID)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "{}".write(to: folder.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
        XCTAssertTrue(GnomeShellProvider.unavailableReason(environment: environment).contains("has not loaded it: log out and in once"))

        let bare = try PrivateBus(directory: home.appendingPathComponent("bus"))
        let connection = try BusConnection(address: bare.address)
        XCTAssertThrowsError(try GnomeShellProvider(bus: connection, environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("log out and in once"), "\(error)")
        }
    }
}
