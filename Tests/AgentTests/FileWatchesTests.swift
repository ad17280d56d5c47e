import Foundation
import Glibc
import Harnesses
import ScreenTimeCore
import XCTest
@testable import Agent

/// The agent's file watches: one inotify instance for all of them (a user has 128 for the whole
/// session), and when none is left, a look every 30 s instead of nothing.
final class FileWatchesTests: InProcessAgentTestCase {
    private let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[limits]\n"

    private func startAgent(clock: VirtualClock) throws -> (AgentRunner, [String: String]) {
        let environment = try environment(config: config)
        return (try startAgent(environment, clock: clock, desktop: ScriptedDesktop()), environment)
    }

    private static func inotifyInstancesOpen() -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "anon_inode:inotify" }.count
    }

    /// The config, the desktop entries, the calendars and the synced folder are watched through
    /// one instance, and each learns of its own changes at the next turn.
    func testEveryWatchSharesOneInotifyInstance() throws {
        let before = Self.inotifyInstancesOpen()
        let clock = VirtualClock(Date(timeIntervalSince1970: 1_780_300_800))
        let (agent, environment) = try startAgent(clock: clock)
        try live(1, agent, clock)
        XCTAssertEqual(Self.inotifyInstancesOpen() - before, 1, "one inotify instance for the whole agent")

        try writeConfig(config + "stnotes = 30m\n", environment)
        try live(1, agent, clock)
        XCTAssertEqual(agent.engine.settings.limits["stnotes"], 30 * 60, "a config edit is applied at the next turn")

        let applications = environment["XDG_DATA_HOME"]! + "/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Notes Deluxe\nExec=stnotes\n".write(toFile: applications + "/stnotes.desktop", atomically: true, encoding: .utf8)
        try live(1, agent, clock)
        XCTAssertEqual(agent.desktopEntries.first { $0.id == "stnotes" }?.name, "Notes Deluxe", "a new desktop entry is known at the next turn")
    }

    /// With every inotify instance of the user taken (by other programs), the agent still starts
    /// and takes a config edit, within 30 s rather than at once.
    func testWithoutInotifyTheConfigIsLookedAtEveryThirtySeconds() throws {
        let clock = VirtualClock(Date(timeIntervalSince1970: 1_780_300_800))
        let (agent, environment) = try Self.withInotifyExhausted { try startAgent(clock: clock) }
        XCTAssertLessThan(agent.fileWatches.fileDescriptor, 0, "the agent was started with no inotify instance left")
        try live(2, step: 1, agent, clock)
        try writeConfig(config + "stnotes = 30m\n", environment)
        try live(1, agent, clock)
        XCTAssertNil(agent.engine.settings.limits["stnotes"], "not seen at once without inotify")
        try live(FileWatches.fallbackInterval, step: 1, agent, clock)
        XCTAssertEqual(agent.engine.settings.limits["stnotes"], 30 * 60, "seen at the next look")
    }

    /// An agent let go of is freed, its inotify instance with it: a test process makes hundreds of
    /// agents, and a user has 128 instances for every program together.
    func testAnAgentLetGoIsFreedWithItsInotifyInstance() throws {
        let before = Self.inotifyInstancesOpen()
        weak var freed: AgentRunner?
        try {
            let clock = VirtualClock(Date(timeIntervalSince1970: 1_780_300_800))
            let (agent, _) = try startAgent(clock: clock)
            try live(2, step: 1, agent, clock)
            freed = agent
        }()
        XCTAssertNil(freed, "nothing holds the agent once its owner let go")
        XCTAssertEqual(Self.inotifyInstancesOpen(), before)
    }

    /// Runs `body` while this process holds every inotify instance it can get.
    private static func withInotifyExhausted<Result>(_ body: () throws -> Result) throws -> Result {
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        while held.count < 100_000 {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { break }
            held.append(descriptor)
        }
        return try body()
    }
}
