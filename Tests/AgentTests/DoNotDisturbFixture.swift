@testable import DoNotDisturb
@testable import Agent
import Foundation
import Harnesses
import ScreenTimeCore
import SessionBus
import XCTest

/// The agent's do-not-disturb on a harness's bus, driven as the agent's loop drives it: the
/// controller on a connection of its own (the agent's), the server found through
/// `NotificationsClient`, answers dispatched by `pump`. `home` stands for the user's home
/// (the saved state lives under it).
final class DoNotDisturbFixture {
    let connection: BusConnection
    let client: NotificationsClient
    let controller: DoNotDisturbController
    let environment: [String: String]
    private(set) var held: [String] = []

    /// `session` is the rest of the desktop's environment (GNOME's gsettings finds dconf through it).
    init(busAddress: String, home: URL, session: [String: String] = [:]) throws {
        environment = session.merging(["HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": busAddress, "PATH": "/usr/bin:/bin"]) { $1 }
        connection = try BusConnection(address: busAddress)
        controller = DoNotDisturbController(environment: environment, now: Date.init)
        controller.attach(connection)
        client = try NotificationsClient(connection: connection, activatesServer: false)
        client.onServerChange = { [controller] in controller.serverChanged($0) }
        controller.onHeld = { [unowned self] app, _ in held.append(app) }
    }

    /// Dispatches the connections until `condition` holds (true) or `timeout` passes (false).
    @discardableResult
    func pump(for timeout: TimeInterval = 5, until condition: () throws -> Bool) rethrows -> Bool {
        try Wait.poll(timeout: timeout, every: 0.005) {
            try? connection.dispatchPending()
            controller.handleReadable(now: Date())
            connection.expireOverdueReplies()
            return try condition()
        }
    }

    /// A fixture once the server is known (the chooser naming it `server`) and a state an earlier
    /// run left saved is given back.
    static func started(busAddress: String, home: URL, session: [String: String] = [:], expecting server: String,
                        file: StaticString = #filePath, line: UInt = #line) throws -> DoNotDisturbFixture {
        let fixture = try DoNotDisturbFixture(busAddress: busAddress, home: home, session: session)
        XCTAssertTrue(fixture.pump { fixture.controller.server != nil && !fixture.controller.isBusy }, "no notification server known",
                      file: file, line: line)
        XCTAssertEqual(fixture.controller.server?.name, server, "server: \(String(describing: fixture.client.serverInfo))", file: file, line: line)
        return fixture
    }

    func set(_ policy: NotificationPolicy, file: StaticString = #filePath, line: UInt = #line) {
        controller.set(policy)
        XCTAssertTrue(pump { !controller.isBusy }, "\(policy) was not answered", file: file, line: line)
    }

    func savedState(server: String) -> String? {
        SavedNotificationState(environment: environment, server: server).read()
    }

    /// As a SIGKILL leaves it: the connection gone, nothing given back.
    func kill() {
        connection.close()
    }
}
