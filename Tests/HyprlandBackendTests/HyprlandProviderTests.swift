import Foundation
import HyprlandBackend
import ScreenTimeCore
import Harnesses
import UnixSocket
import XCTest

/// Hyprland is not installable on Debian 12: these run against `HyprlandProtocolPeer`, which
/// speaks Hyprland's documented IPC, and say so in their names.
final class HyprlandProviderTests: XCTestCase {
    private var peer: HyprlandProtocolPeer!
    private var provider: HyprlandProvider!
    private var driver: ProviderDriver!
    private var directory: URL!
    /// A live process for /proc to read: this test process.
    private let pid = getpid()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-hypr-\(UUID().uuidString.prefix(8))")
        peer = try HyprlandProtocolPeer(directory: directory)
    }

    override func tearDown() {
        provider?.close()
        peer?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func connect() throws {
        provider = try HyprlandProvider(environment: peer.environment, now: Date.init)
        driver = try ProviderDriver(provider)
    }



    func testAgainstDocumentedProtocolPeerCurrentFocusComesFromTheWindowList() throws {
        let address = peer.openWindow(class: "org.example.Open", title: "Open", pid: pid)
        try connect()
        let focus = try provider.currentFocus()
        XCTAssertEqual(focus?.window, WindowID(address))
        XCTAssertEqual(focus?.wmClass, "org.example.Open")
        XCTAssertEqual(focus?.pid, pid)
        XCTAssertEqual(peer.requests, ["j/clients", "j/activewindow"])
    }

    func testAgainstDocumentedProtocolPeerFocusEventsCarryTheClassAndLaterThePid() throws {
        try connect()
        let first = peer.openWindow(class: "org.example.First", title: "One", pid: pid)
        try driver.pump { driver.lastFocus??.window == WindowID(first) }
        XCTAssertEqual(driver.lastFocus??.wmClass, "org.example.First")
        XCTAssertEqual(driver.lastFocus??.title, "", "titles are passed on only where a title rule may apply")
        let second = peer.openWindow(class: "org.example.Second", title: "Two", pid: pid)
        try driver.pump { driver.lastFocus??.window == WindowID(second) }
        // The pid comes with the window list asked for when the window opened.
        try driver.pump { provider.nextDeadline(after: Date()) == nil }
        peer.focusWindow(first)
        try driver.pump { driver.lastFocus??.window == WindowID(first) }
        XCTAssertEqual(driver.lastFocus??.pid, pid)
        XCTAssertEqual(driver.lastFocus??.executable, URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)
    }

    func testAgainstDocumentedProtocolPeerTitleChangeOfTheFocusedWindow() throws {
        try connect()
        provider.needsTitle = { _ in true }
        let window = peer.openWindow(class: "org.example.Mail", title: "Inbox", pid: pid)
        try driver.pump { driver.lastFocus??.title == "Inbox" }
        peer.setTitle("Inbox, 3 new", of: window)
        try driver.pump {
            if case .titleChanged(let facts) = driver.events.last { return facts.title == "Inbox, 3 new" }
            return false
        }
        XCTAssertEqual(driver.events.filter { if case .titleChanged = $0 { return true } else { return false } }.count, 1,
                       "the re-announced active window is not a second change: \(driver.events)")
    }

    func testAgainstDocumentedProtocolPeerMinimizeMovesEveryWindowOfTheAppToTheSpecialWorkspace() throws {
        let keep = peer.openWindow(class: "org.example.Keep", title: "k", pid: pid)
        let first = peer.openWindow(class: "org.example.Limited", title: "a", pid: pid)
        let second = peer.openWindow(class: "org.example.Limited", title: "b", pid: pid)
        try connect()
        try provider.minimize(AppID("org.example.limited")) { AppID(($0.wmClass ?? "").lowercased()) }
        try driver.pump { peer.window(second)?.workspace == HyprlandProvider.hiddenWorkspace && provider.nextDeadline(after: Date()) == nil }
        XCTAssertEqual(peer.window(first)?.workspace, HyprlandProvider.hiddenWorkspace)
        XCTAssertEqual(peer.window(keep)?.workspace, "1")
        XCTAssertEqual(peer.requests.last,
                       "[[BATCH]]dispatch movetoworkspacesilent special:screentime,address:0x\(String(first, radix: 16));"
                       + "dispatch movetoworkspacesilent special:screentime,address:0x\(String(second, radix: 16))")
        try driver.pump { driver.lastFocus??.window == WindowID(keep) }
    }

    func testAgainstDocumentedProtocolPeerWindowBroughtBackIsAFocusEvent() throws {
        let window = peer.openWindow(class: "org.example.Hidden", title: "h", pid: pid)
        try connect()
        try provider.minimize(AppID("org.example.hidden")) { AppID(($0.wmClass ?? "").lowercased()) }
        try driver.pump { driver.lastFocus == .some(nil) }
        peer.bringBack(window)
        try driver.pump { driver.lastFocus??.window == WindowID(window) }
    }

    func testAgainstDocumentedProtocolPeerClosingTheFocusedWindowMovesFocus() throws {
        let stays = peer.openWindow(class: "org.example.Stays", title: "s", pid: pid)
        let goes = peer.openWindow(class: "org.example.Goes", title: "g", pid: pid)
        try connect()
        peer.closeWindow(goes)
        try driver.pump { driver.lastFocus??.window == WindowID(stays) }
        peer.closeWindow(stays)
        try driver.pump { driver.lastFocus == .some(nil) }
    }

    func testAgainstDocumentedProtocolPeerHyprlandGoingAwayIsAnErrorFromHandleReadable() throws {
        try connect()
        peer.stop()
        XCTAssertTrue(try driver.errorWhenTheCompositorGoesAway() is UnixSocketError)
    }

    func testNoInstanceSignatureIsAnError() {
        XCTAssertThrowsError(try HyprlandProvider(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], now: Date.init))
    }
}
