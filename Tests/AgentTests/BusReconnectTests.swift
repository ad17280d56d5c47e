import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The agent's connections die and come back: the session bus (on the same address), the X
/// server and the notification server. Each test prints how long the agent took to reconnect.
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

    func status(_ agent: AgentProcess) -> StatusSnapshot? {
        (try? agent.cli(["status", "--json"])).flatMap { try? StatusFormat.decode($0.out) }
    }

    func testReconnectsToARestartedNotificationServer() throws {
        let desk = try DesktopHarness.shared()
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"), desk: desk)
        XCTAssertTrue(eventually { self.status(agent)?.backends["notifications"] != nil }, "the agent never saw dunst")
        desk.stopNotificationServer()
        defer { if !desk.busNameHasOwner("org.freedesktop.Notifications") { try? desk.startNotificationServer() } }
        XCTAssertTrue(eventually { self.status(agent)?.backends["notifications"] == nil }, "the agent did not see dunst leave")

        try desk.startNotificationServer()
        let restarted = Date()
        XCTAssertTrue(eventually(10) { self.status(agent)?.backends["notifications"] != nil }, "log:\n\(agent.log)")
        print("notification server reconnect: \(String(format: "%.2f", Date().timeIntervalSince(restarted))) s after dunst owned its name")
    }

    /// An agent on an X server of its own, once it follows it.
    private func agentOnItsOwnDisplay(_ display: PrivateDisplay) throws -> AgentProcess {
        let desk = try DesktopHarness.shared()
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment["DISPLAY"] = display.name
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(eventually { self.followsX11(agent) }, "the agent never used the display")
        return agent
    }

    func testReconnectsToARestartedXServer() throws {
        var display = try PrivateDisplay()
        defer { display.stop() }
        let agent = try agentOnItsOwnDisplay(display)

        display.stop()
        XCTAssertTrue(eventually { !self.followsX11(agent) }, "the agent did not see the display go")
        display = try PrivateDisplay(number: display.number)
        let restarted = Date()
        XCTAssertTrue(eventually(10) { self.followsX11(agent) }, "log:\n\(agent.log)")
        print("X server reconnect: \(String(format: "%.2f", Date().timeIntervalSince(restarted))) s after Xvfb was ready")
        XCTAssertTrue(agent.process.isRunning)
    }

    /// The X server going away while the display filter grays it (Productivity, its fade still
    /// running on the filter's own connection): the agent stays, and follows the server's return.
    func testAnXServerGoneWhileTheScreenIsGrayLeavesTheAgentRunning() throws {
        var display = try PrivateDisplay()
        defer { display.stop() }
        let agent = try agentOnItsOwnDisplay(display)
        XCTAssertTrue(status(agent)?.backends["screen filter"]?.contains("RandR") == true, "\(String(describing: status(agent)?.backends))")
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { agent.log.contains("mode: Productivity") }, agent.log)
        usleep(500_000)  // inside the fade: the filter's connection is busy when the server goes

        display.stop()
        XCTAssertTrue(eventually { !self.followsX11(agent) }, "the agent did not see the display go")
        usleep(2_500_000) // the thing checked: the agent outlives the server's absence
        XCTAssertTrue(agent.process.isRunning, "log:\n\(agent.log)")
        display = try PrivateDisplay(number: display.number)
        XCTAssertTrue(eventually(10) { self.followsX11(agent) }, "log:\n\(agent.log)")
    }

    /// While the agent looks for a desktop every 2 s, it says what it found once, and again only
    /// when that changes: the display's absence is one line, its arrival another.
    func testSearchingForTheDesktopLogsEachFindingOnce() throws {
        let desk = try DesktopHarness.shared()
        var display = try PrivateDisplay()
        display.stop()
        defer { display.stop() }
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment["DISPLAY"] = display.name
        let agent = try AgentProcess(environment: environment, desk: desk)
        // Three searches (at 0, 2 and 4 s) find the same: no display.
        let searching = Date()
        while Date().timeIntervalSince(searching) < 5 { usleep(100_000) } // the thing checked: searches that find nothing new
        display = try PrivateDisplay(number: display.number)
        XCTAssertTrue(eventually(10) { self.followsX11(agent) }, "log:\n\(agent.log)")
        let focusLines = agent.log.split(separator: "\n").filter { $0.hasPrefix("screentime: focus: ") }
        XCTAssertEqual(focusLines.count, 2, "one line without the display, one with it:\n\(agent.log)")
        XCTAssertEqual(focusLines.last.map { $0.contains("X11") }, true, "log:\n\(agent.log)")
    }

    /// Whether the agent's focus provider is the X server's (status names the chosen provider).
    func followsX11(_ agent: AgentProcess) -> Bool {
        status(agent)?.backends["focus"]?.hasPrefix("X11") == true
    }
}
