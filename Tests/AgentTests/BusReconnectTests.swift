import Foundation
import SessionBus
import TestSupport
import XCTest

/// The agent's session bus dies and comes back on the same address.
final class BusReconnectTests: XCTestCase {
    func testReconnectsToARestartedBusWhoseAddressCarriesAGUID() throws {
        let desk = try DesktopHarness.shared()
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let bus = try PrivateBus(directory: URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("bus"))
        XCTAssertTrue(bus.address.contains(",guid="), bus.address)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let agent = try AgentProcess(environment: environment, desk: desk) { bus.hasOwner(AgentInterface.busName) }

        bus.kill()
        try bus.start()
        let restarted = Date()
        XCTAssertTrue(eventually(15) { bus.hasOwner(AgentInterface.busName) }, "the agent did not come back; log:\n\(agent.log)")
        print("bus reconnect: \(String(format: "%.2f", Date().timeIntervalSince(restarted))) s after the bus restarted")
        XCTAssertTrue(agent.process.isRunning)
        XCTAssertEqual(try agent.cli(["status"]).status, 0, "the CLI reaches the agent on the restarted bus")
    }
}
