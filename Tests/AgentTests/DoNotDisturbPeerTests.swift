@testable import Agent
import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// swaync (not in Debian 12) and KDE Plasma's notification server (not in the KWin harness),
/// against protocol peers speaking their documented interfaces on a bus of the test's own.
final class DoNotDisturbPeerTests: XCTestCase {
    var bus: PrivateBus!
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-dnd-\(UUID().uuidString.prefix(8))")
        bus = try PrivateBus(directory: home.appendingPathComponent("bus"))
        addTeardownBlock { [unowned self] in
            bus.kill()
            try? FileManager.default.removeItem(at: home)
        }
    }

    func fixture(_ peer: NotificationServerPeer, expecting server: String) throws -> DoNotDisturbFixture {
        try DoNotDisturbFixture.started(busAddress: bus.address, home: home, expecting: server)
    }

    func testSwayncPeerDoNotDisturbOnAndTheUsersStateBack() throws {
        let swaync = try NotificationServerPeer.swaync(address: bus.address)
        defer { swaync.close() }
        let dnd = try fixture(swaync, expecting: "swaync")
        dnd.set(.silenced)
        XCTAssertTrue(swaync.dnd)
        XCTAssertEqual(dnd.savedState(server: "swaync"), "false")
        dnd.set(.normal)
        XCTAssertFalse(swaync.dnd)
        dnd.set(.heldAndSummarised)
        XCTAssertTrue(swaync.dnd)
        dnd.controller.restoreAtExit(advanceClock: {})
        XCTAssertFalse(swaync.dnd, "given back at exit")
        swaync.dnd = true
        dnd.set(.silenced)
        dnd.set(.normal)
        XCTAssertTrue(swaync.dnd, "the user's own do-not-disturb stays")
    }

    func testSwayncPeerStateComesBackAfterAKill() throws {
        let swaync = try NotificationServerPeer.swaync(address: bus.address)
        defer { swaync.close() }
        let killed = try fixture(swaync, expecting: "swaync")
        killed.set(.silenced)
        killed.kill()
        XCTAssertTrue(swaync.dnd)
        let next = try fixture(swaync, expecting: "swaync")
        XCTAssertTrue(next.pump { !swaync.dnd })
        XCTAssertNil(next.savedState(server: "swaync"))
    }

    func testAStateNotGivenBackStaysTheUsersUntilItIs() throws {
        let swaync = try NotificationServerPeer.swaync(address: bus.address)
        defer { swaync.close() }
        let dnd = try fixture(swaync, expecting: "swaync")
        dnd.set(.silenced)
        swaync.refusesChanges = true
        dnd.set(.normal)
        XCTAssertTrue(swaync.dnd, "the server refused")
        XCTAssertEqual(dnd.savedState(server: "swaync"), "false", "kept for the next try")
        swaync.refusesChanges = false
        dnd.set(.silenced)
        XCTAssertEqual(dnd.savedState(server: "swaync"), "false", "not the silence left in place")
        dnd.set(.normal)
        XCTAssertFalse(swaync.dnd)
        XCTAssertNil(dnd.savedState(server: "swaync"))
    }

    func testPlasmaPeerInhibitsAndUninhibits() throws {
        let plasma = try NotificationServerPeer.plasma(address: bus.address)
        defer { plasma.close() }
        let dnd = try fixture(plasma, expecting: "KDE Plasma")
        dnd.set(.silenced)
        XCTAssertEqual(plasma.inhibitions.values.map(\.entry), ["screentime"])
        dnd.set(.normal)
        XCTAssertTrue(plasma.inhibitions.isEmpty)
        XCTAssertNil(dnd.savedState(server: "KDE Plasma"))
        dnd.set(.silenced)
        dnd.controller.restoreAtExit(advanceClock: {})
        XCTAssertTrue(plasma.inhibitions.isEmpty, "UnInhibit at exit")
    }

    func testPlasmaPeerNextStartAfterAKillHasNothingToGiveBack() throws {
        let plasma = try NotificationServerPeer.plasma(address: bus.address)
        defer { plasma.close() }
        let killed = try fixture(plasma, expecting: "KDE Plasma")
        killed.set(.silenced)
        XCTAssertEqual(killed.savedState(server: "KDE Plasma"), "inhibited")
        killed.kill()
        // Plasma itself ends an inhibition whose caller left the bus; the next start only tidies up.
        let next = try fixture(plasma, expecting: "KDE Plasma")
        XCTAssertNil(next.savedState(server: "KDE Plasma"))
    }

    func testAServerWithoutDoNotDisturbIsTheDummy() throws {
        let dnd = try DoNotDisturbFixture(busAddress: bus.address, home: home)
        dnd.controller.serverChanged(NotificationServerInfo(name: "notification-daemon", vendor: "GNOME", version: "3.20", specVersion: "1.2"))
        XCTAssertEqual(dnd.controller.server?.name, "notification-daemon")
        dnd.set(.silenced)
        XCTAssertFalse(dnd.controller.silenced)
        XCTAssertNil(dnd.savedState(server: "notification-daemon"), "nothing saved where nothing changed")
    }
}
