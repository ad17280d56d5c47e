import Foundation
import LocalSystem
import ScreenTimeCore
import SyncFolder
import TestSupport
import XCTest
@testable import Agent

/// Two whole agents in the test's process (`InProcessWeekTests`' scripted desktop and virtual
/// clock), each with its own home, store and bus, joined to one folder: one budget between them.
final class SyncInProcessTests: XCTestCase {
    typealias VirtualClock = InProcessWeekTests.VirtualClock
    typealias ScriptedDesktop = InProcessWeekTests.ScriptedDesktop

    private var root: URL!
    private var buses: [PrivateBus] = []

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sync-in-process-\(UUID().uuidString.prefix(8))")
    }

    override func tearDownWithError() throws {
        buses.forEach { $0.kill() }
        try? FileManager.default.removeItem(at: root)
    }

    struct Computer {
        var agent: AgentRunner
        var desktop: ScriptedDesktop
        var environment: [String: String]
    }

    private func computer(_ name: String, config: String, joining folder: String?, clock: VirtualClock) throws -> Computer {
        let home = root.appendingPathComponent(name)
        let bus = try PrivateBus(directory: home.appendingPathComponent("bus"))
        buses.append(bus)
        let environment = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("runtime").path,
            "XDG_DATA_DIRS": home.appendingPathComponent("share").path,
            "DBUS_SESSION_BUS_ADDRESS": bus.address,
            "SCREENTIME_CARD": "off",
        ]
        try FileManager.default.createDirectory(atPath: environment["XDG_RUNTIME_DIR"]!, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let configFile = home.appendingPathComponent(".config/screentime/config")
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        if let folder {
            var membership = SyncMembership.load(environment: environment)
            membership.folder = folder
            membership.name = name
            try membership.save(environment: environment)
        }
        let desktop = ScriptedDesktop()
        var options = AgentRunner.Options(environment: environment)
        options.clock = clock
        options.desktop = { _ in desktop.desktop }
        let agent = try AgentRunner(options: options)
        try agent.start()
        return Computer(agent: agent, desktop: desktop, environment: environment)
    }

    /// Both computers' loops, a turn each per `step` of the clock.
    private func live(_ seconds: TimeInterval, step: TimeInterval = 1, _ computers: [Computer], _ clock: VirtualClock) throws {
        var left = seconds
        while left > 0 {
            clock.advance(min(step, left))
            left -= step
            for computer in computers { try computer.agent.turn(waitingAtMost: 0) }
        }
    }

    private func used(_ app: AppID, on computer: Computer, _ clock: VirtualClock) -> TimeInterval? {
        computer.agent.status(at: clock.wall).apps.first { $0.id == app }?.usedSeconds
    }

    /// 25 of a shared 30 minutes on A, then the app on B: B disables it 5 minutes later, and both
    /// count the same 30 minutes. A computer that leaves keeps its own history and counts alone.
    func testOneLimitAcrossTwoComputers() throws {
        let zone = SystemTimeZone()
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 9, minute: 0)))
        let folder = root.appendingPathComponent("Sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[limits]\nstnotes = 30m\n"
        let a = try computer("laptop", config: config, joining: folder, clock: clock)
        let b = try computer("desktop", config: config, joining: folder, clock: clock)
        let both = [a, b]

        a.desktop.focus("stnotes")
        try live(25 * 60, step: 5, both, clock)
        a.desktop.focus("steditor", window: 2)
        try live(2, both, clock)
        // A counts from its first turn, a few seconds after its clock's start.
        let onA = try XCTUnwrap(a.agent.engine.usage["stnotes"])
        XCTAssertEqual(onA, 25 * 60, accuracy: 5)
        XCTAssertEqual(used("stnotes", on: b, clock), onA, "B counts A's time")

        b.desktop.focus("stnotes")
        try live(6 * 60, both, clock)
        XCTAssertEqual(b.desktop.minimized, ["stnotes"])
        XCTAssertEqual(used("stnotes", on: b, clock), 30 * 60, "disabled on B at the shared limit, to the second")
        XCTAssertEqual(used("stnotes", on: a, clock), 30 * 60, "A counts B's time")
        let onB = 30 * 60 - onA

        // A's files in the folder hold A's 25 minutes; B's, B's 5.
        let reading = SyncFolder(root: folder).read()
        XCTAssertEqual(reading.sortedDevices.map(\.name), ["desktop", "laptop"])
        let day = CivilDate(year: 2026, month: 6, day: 1)
        XCTAssertEqual(reading.sortedDevices.map { $0.days[day]?.appTotals["stnotes"] }, [onB, onA])
        XCTAssertTrue(reading.damaged.isEmpty && reading.conflictCopies.isEmpty)

        // B leaves: it counts its own 5 minutes only, from the next turn.
        var membership = SyncMembership.load(environment: b.environment)
        membership.folder = nil
        try membership.save(environment: b.environment)
        try live(2, both, clock)
        XCTAssertEqual(used("stnotes", on: b, clock), onB)
    }
}
