@testable import GnomeShellBackend
import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Mutter's idle monitor on a real, headless GNOME Shell; user input faked with ResetIdletime.
final class MutterIdleProviderTests: XCTestCase {
    func testIdleWatchFiresAtTheThresholdAndInputEndsIt() throws {
        let shell = try GnomeShellHarness.shared()
        let bus = try BusConnection(address: shell.busAddress)
        defer { bus.close() }
        try shell.resetIdletime()
        let provider = try MutterIdleProvider(bus: bus, threshold: 1, now: Date.init)
        defer { provider.close() }
        var transitions: [IdleTransition] = []
        provider.onIdle = { transitions.append($0) }
        let started = Date()
        try shell.pump(bus, "idle after 1 s without input", timeout: 10) { transitions.count == 1 }
        XCTAssertFalse(transitions[0].isActive)
        XCTAssertGreaterThanOrEqual(transitions[0].date.timeIntervalSince(started), 0.5)

        try shell.resetIdletime()
        try shell.pump(bus, "active again at the next input", timeout: 5) { transitions.count == 2 }
        XCTAssertTrue(transitions[1].isActive)

        // A new threshold starts from "active" again.
        try provider.setThreshold(0.5)
        try shell.pump(bus, "idle at the new threshold", timeout: 10) { transitions.count == 3 }
        XCTAssertFalse(transitions[2].isActive)
    }

    func testAUserAlreadyAwayIsReportedAtOnce() throws {
        let shell = try GnomeShellHarness.shared()
        let bus = try BusConnection(address: shell.busAddress)
        defer { bus.close() }
        try shell.resetIdletime()
        usleep(1_200_000)
        let provider = try MutterIdleProvider(bus: bus, threshold: 1, now: Date.init)
        defer { provider.close() }
        var transitions: [IdleTransition] = []
        provider.onIdle = { transitions.append($0) }
        let started = Date()
        try shell.pump(bus, "idle reported for a user away longer than the threshold", timeout: 5) { !transitions.isEmpty }
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
    }

    func testWithoutMutterTheProviderIsUnavailable() throws {
        let shell = try GnomeShellHarness.shared()
        let bare = try PrivateBus(directory: shell.root.appendingPathComponent("bare-\(UUID().uuidString.prefix(8))"))
        let bus = try BusConnection(address: bare.address)
        XCTAssertThrowsError(try MutterIdleProvider(bus: bus, threshold: 60, now: Date.init)) { error in
            XCTAssertTrue(error is ProviderUnavailable, "\(error)")
        }
    }
}
