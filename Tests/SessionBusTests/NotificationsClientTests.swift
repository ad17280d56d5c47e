import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Against the harness's real dunst 1.9.
final class NotificationsClientTests: XCTestCase {
    private var desk: DesktopHarness!
    private var connection: BusConnection!
    private var client: NotificationsClient!
    private var events: [NotificationEvent] = []

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        connection = try BusConnection(address: desk.busAddress)
        client = try NotificationsClient(connection: connection) { [unowned self] in events.append($0) }
    }

    override func tearDown() {
        connection?.close()
    }

    private func request(_ summary: String, body: String = "", actions: [NotificationAction] = []) -> NotificationRequest {
        NotificationRequest(icon: "dialog-information", summary: summary, body: body, actions: actions,
                            urgency: .critical, expireTimeout: 0, category: "screentime.countdown")
    }

    func testReadsCapabilitiesAndServerInformationFromDunst() throws {
        try pump(connection, "dunst's answers") { client.serverAvailable }
        XCTAssertTrue(client.capabilities.isSuperset(of: ["actions", "body", "body-markup"]), "\(client.capabilities)")
        let info = try XCTUnwrap(client.serverInfo)
        XCTAssertEqual(info.name, "dunst")
        XCTAssertEqual(info.specVersion, "1.2")
        XCTAssertFalse(info.version.isEmpty)
    }

    func testNotifyReturnsAnIdAndReplacingKeepsIt() throws {
        let id = try shown(client, request("10 minutes left"), replacing: 0, on: connection)
        XCTAssertGreaterThan(id, 0)
        let again = try shown(client, request("5 minutes left"), replacing: id, on: connection)
        XCTAssertEqual(again, id, "updated in place")
        let other = try shown(client, request("another"), replacing: 0, on: connection)
        XCTAssertNotEqual(other, id)
        try client.close(id)
        try client.close(other)
    }

    func testSendsWhatTheRequestSaysWithEscapedBodyAndHints() throws {
        let monitor = try BusMonitor(address: desk.busAddress)
        let actions = [NotificationAction(key: "continue", label: "Continue for 1 hour"),
                       NotificationAction(key: "ok", label: "OK")]
        let id = try shown(client, request("Firefox: 1 minute left", body: #"<i>Tom & Jerry's "tab"</i>"#, actions: actions),
                                 replacing: 0, on: connection)
        let _ = try shown(client, request("Firefox: 10 seconds left", body: "x", actions: actions), replacing: id, on: connection)

        let first = try monitor.waitForNotify { $0.summary == "Firefox: 1 minute left" }
        XCTAssertEqual(first.sender, connection.uniqueName)
        XCTAssertEqual(first.appName, "Screen Time")
        XCTAssertEqual(first.icon, "dialog-information")
        XCTAssertEqual(first.replacesID, 0)
        // dunst has body-markup, so the plain text is escaped to show literally.
        XCTAssertEqual(first.body, "&lt;i&gt;Tom &amp; Jerry&apos;s &quot;tab&quot;&lt;/i&gt;")
        XCTAssertEqual(first.actions, ["continue", "Continue for 1 hour", "ok", "OK"])
        XCTAssertEqual(first.hints["urgency"], .variant(.byte(2)))
        XCTAssertEqual(first.hints["category"], .variant(.string("screentime.countdown")))
        XCTAssertEqual(first.hints["desktop-entry"], .variant(.string("screentime")))
        XCTAssertEqual(first.expireTimeout, 0)

        let update = try monitor.waitForNotify { $0.summary == "Firefox: 10 seconds left" }
        XCTAssertEqual(update.replacesID, id)
        try client.close(id)
    }

    func testActionChosenInDunstArrivesOnTheSendingConnection() throws {
        let dunst = try DunstControl(desktop: desk)
        let otherConnection = try BusConnection(address: desk.busAddress)
        var otherEvents: [NotificationEvent] = []
        let other = try NotificationsClient(connection: otherConnection) { otherEvents.append($0) }
        _ = try shown(other, request("someone else's", actions: [NotificationAction(key: "continue", label: "Continue for 1 hour")]),
                           replacing: 0, on: otherConnection)

        let id = try shown(client, request("Firefox is disabled",
                                          actions: [NotificationAction(key: "continue", label: "Continue for 1 hour"),
                                                    NotificationAction(key: "dismiss", label: "Not now")]),
                                 replacing: 0, on: connection)
        try dunst.chooseAction(label: "Continue for 1 hour", notification: id)

        try pump(connection, "ActionInvoked for \(id)") { events.contains(.actionInvoked(id: id, key: "continue")) }
        XCTAssertEqual(events.first, .actionInvoked(id: id, key: "continue"))
        try otherConnection.dispatchPending()
        XCTAssertTrue(otherEvents.isEmpty, "other clients do not see our events: \(otherEvents)")
        try client.close(id)
    }

    func testClosingReportsClosedWithReason() throws {
        let id = try shown(client, request("closing"), replacing: 0, on: connection)
        try client.close(id)
        // Reason 3: closed by a call to CloseNotification.
        try pump(connection, "NotificationClosed for \(id)") { events.contains(.closed(id: id, reason: 3)) }
    }

    func testPlainBodyAndNoActionsForAServerWithoutThoseCapabilities() throws {
        // dunst has both capabilities; a minimal server on its own name lacks them.
        let name = "org.screentime.MinimalNotifications\(getpid())"
        let server = try BusServingThread(address: desk.busAddress) { connection in
            guard try connection.requestName(name) else { throw BusMethodError(name: BusMethodError.failed, message: "name taken") }
            try connection.export(path: NotificationsClient.objectPath, interface: NotificationsClient.interface,
                                  introspection: "") { member, _ in
                switch member {
                case "GetCapabilities": return [.strings(["body"])]
                case "GetServerInformation": return [.string("minimal"), .string("screentime tests"), .string("0"), .string("1.2")]
                case "Notify": return [.uint32(7)]
                default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
                }
            }
        }
        defer { server.stop() }
        let monitor = try BusMonitor(address: desk.busAddress)
        let minimal = try NotificationsClient(connection: connection, serverName: name)
        try pump(connection, "the minimal server's answers") { minimal.serverAvailable }
        XCTAssertEqual(minimal.capabilities, ["body"])
        XCTAssertEqual(minimal.serverInfo?.name, "minimal")

        let id = try shown(minimal, request("plain", body: "a < b & c", actions: [NotificationAction(key: "k", label: "L")]),
                                  replacing: 0, on: connection)
        XCTAssertEqual(id, 7)
        let sent = try monitor.waitForNotify { $0.summary == "plain" }
        XCTAssertEqual(sent.body, "a < b & c")
        XCTAssertEqual(sent.actions, [])
    }

    func testServerGoingAwayAndComingBack() throws {
        // Without activation: the bus could otherwise start the installed dunst with its default config.
        let client = try NotificationsClient(connection: connection, activatesServer: false)
        try pump(connection, "dunst's answers") { client.serverAvailable }
        var changes: [NotificationServerInfo?] = []
        client.onServerChange = { changes.append($0) }
        desk.stopNotificationServer()
        defer { if !desk.busNameHasOwner("org.freedesktop.Notifications") { try? desk.startNotificationServer() } }

        try pump(connection, "the server to be seen leaving") { !client.serverAvailable }
        XCTAssertEqual(client.capabilities, [])
        XCTAssertThrowsError(try shown(client, request("nobody listens"), replacing: 0, on: connection)) {
            XCTAssertEqual($0 as? NotificationsError, .serverUnavailable)
        }
        try connection.dispatchPending() // the connection keeps working

        try desk.startNotificationServer()
        try pump(connection, "the server to be seen again") { client.serverAvailable }
        XCTAssertTrue(client.capabilities.contains("actions"))
        XCTAssertEqual(changes.count, 2)
        XCTAssertEqual(changes.first, .some(nil))
        XCTAssertEqual(changes.last??.name, "dunst")
        let id = try shown(client, request("back again"), replacing: 0, on: connection)
        XCTAssertGreaterThan(id, 0)
        try client.close(id)
    }

    /// A request's link goes under the body as markup where the server shows links (dunst), and
    /// is left out where it takes neither markup nor links (Plasma's peer): the default action
    /// stands in for it there.
    func testTheLinkOnlyWhereTheServerShowsLinks() throws {
        let link = NotificationLink(url: "file:///home/u/week & more.html", label: "Open the full report")
        var summed = request("Last week", body: "3 h <in all>")
        summed.link = link
        let monitor = try BusMonitor(address: desk.busAddress)
        let id = try shown(client, summed, on: connection)
        XCTAssertEqual(try monitor.waitForNotify { $0.summary == "Last week" }.body,
                       "3 h &lt;in all&gt;\n<a href=\"file:///home/u/week &amp; more.html\">Open the full report</a>")
        try client.close(id)

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-link-\(UUID().uuidString.prefix(8))")
        let bus = try PrivateBus(directory: home)
        defer {
            bus.kill()
            try? FileManager.default.removeItem(at: home)
        }
        let plasma = try NotificationServerPeer.plasma(address: bus.address)
        defer { plasma.close() }
        let plain = try BusConnection(address: bus.address)
        defer { plain.close() }
        let plainClient = try NotificationsClient(connection: plain)
        let plainMonitor = try BusMonitor(address: bus.address)
        _ = try shown(plainClient, summed, on: plain)
        XCTAssertEqual(try plainMonitor.waitForNotify { $0.summary == "Last week" }.body, "3 h <in all>")
    }
}
