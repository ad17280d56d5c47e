@testable import Agent
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Do-not-disturb on a real xfce4-notifyd and its settings store (xfconfd), both on a bus of
/// the test's own (the harness's bus has dunst) and the harness's display: `/do-not-disturb` set
/// while silenced, as `xfconf-query` reads it, and the user's own value (or none) given back.
final class DoNotDisturbXfceTests: XCTestCase {
    var bus: PrivateBus!
    var environment: [String: String] = [:]
    var home: URL!
    var processes: [Process] = []

    override func setUpWithError() throws {
        let desk = try DesktopHarness.shared()
        home = desk.root.appendingPathComponent("xfce-\(UUID().uuidString.prefix(8))")
        bus = try PrivateBus(directory: home.appendingPathComponent("bus"))
        environment = desk.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        addTeardownBlock { [unowned self] in
            for process in processes where process.isRunning { process.terminate(); process.waitUntilExit() }
            bus.kill()
        }
        try start("/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd", waitingFor: "org.xfce.Xfconf")
        try start("/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd", waitingFor: "org.freedesktop.Notifications")
    }

    func start(_ path: String, waitingFor name: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw DesktopHarness.Failure.missingProgram(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        guard eventually(10, { bus.hasOwner(name) }) else { throw DesktopHarness.Failure.didNotStart(path, "it took no \(name)") }
    }

    /// `/do-not-disturb` as `xfconf-query` prints it; nil when it is not set.
    func doNotDisturb() throws -> String? {
        let query = Process()
        query.executableURL = URL(fileURLWithPath: try DesktopHarness.which("xfconf-query"))
        query.arguments = ["-c", "xfce4-notifyd", "-p", "/do-not-disturb"]
        query.environment = environment
        query.standardError = FileHandle.nullDevice
        // It fails when the property does not exist.
        return (try? query.checkedOutput("xfconf-query"))?.split(separator: "\n").first.map(String.init)
    }

    func fixture() throws -> DoNotDisturbFixture {
        try DoNotDisturbFixture.started(busAddress: bus.address, home: home, expecting: "xfce4-notifyd")
    }

    func testSilencingSetsDoNotDisturbAndTheEndLeavesItUnsetAgain() throws {
        XCTAssertNil(try doNotDisturb())
        let dnd = try fixture()
        dnd.set(.silenced)
        XCTAssertEqual(try doNotDisturb(), "true")
        XCTAssertEqual(dnd.savedState(server: "xfce4-notifyd"), "unset")
        dnd.set(.normal)
        XCTAssertNil(try doNotDisturb())
    }

    func testTheUsersOwnValueComesBackAtExit() throws {
        let dnd = try fixture()
        dnd.set(.silenced)
        dnd.set(.normal)
        XCTAssertNil(try doNotDisturb())
        _ = try DesktopHarness.shared().run("xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", "false"],
                                              extraEnvironment: environment)
        XCTAssertEqual(try doNotDisturb(), "false")
        dnd.set(.silenced)
        XCTAssertEqual(try doNotDisturb(), "true")
        dnd.controller.restoreAtExit(advanceClock: {})
        XCTAssertEqual(try doNotDisturb(), "false")
    }
}
