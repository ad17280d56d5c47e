import Foundation
import LocalSystem
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest
@testable import Agent

/// The whole agent in the test's process: the real loop, engine, resolver, store (a temporary
/// SQLite file), config watch and `AgentService` on a private bus, with scripted desktop providers
/// and a virtual clock. A week of a user's life runs in seconds. Other files extend it with their
/// own in-process scenarios (InProcessCommitmentTests.swift).
final class InProcessWeekTests: XCTestCase {
    /// The wall clock a test moves; the monotonic one moves with it, except across a suspend.
    final class VirtualClock: AgentClock {
        var wall: Date
        private let base = SuspendingClock.now
        private var monotonicOffset: TimeInterval = 0

        init(_ start: Date) { wall = start }

        func read() -> (wall: Date, monotonic: SuspendingClock.Instant) {
            (wall, base.advanced(by: .milliseconds(Int64((monotonicOffset * 1000).rounded()))))
        }

        func advance(_ seconds: TimeInterval) {
            wall = wall.addingTimeInterval(seconds)
            monotonicOffset += seconds
        }

        /// The machine asleep for `seconds`: the wall clock goes on, the monotonic one stands still.
        func suspend(_ seconds: TimeInterval) { wall = wall.addingTimeInterval(seconds) }
    }

    /// Focus, minimize, idle and the screen filter as a script says, delivered through the loop
    /// (input held for the next turn, as a real connection's buffered input is).
    final class ScriptedDesktop: FocusProvider, WindowMinimizer, IdleProvider, ScreenFilterProvider, DesktopConnection {
        let providerName = "scripted"
        var onFocus: ((FocusEvent) -> Void)?
        var needsTitle: (WindowFacts) -> Bool = { _ in false }
        var onIdle: ((IdleTransition) -> Void)?
        let abilities = ScreenFilterAbilities(grayscale: true, warmth: true)
        let pollDescriptor: Int32 = -1
        let wantsToWrite = false
        private(set) var focused: WindowFacts?
        private var pending: [() -> Void] = []
        private(set) var minimized: [AppID] = []
        private(set) var filters: [ColorFilter] = []

        var hasBufferedInput: Bool { !pending.isEmpty }

        func focus(_ app: String?, window: UInt64 = 1) {
            let facts = app.map { WindowFacts(window: WindowID(window), wmClass: $0) }
            pending.append { [unowned self] in
                focused = facts
                onFocus?(.focused(facts))
            }
        }

        func idle(_ isIdle: Bool, at date: Date) {
            pending.append { [unowned self] in onIdle?(isIdle ? .becameIdle(at: date) : .becameActive(at: date)) }
        }

        func handleReadable() throws {
            let delivering = pending
            pending.removeAll()
            for event in delivering { event() }
        }

        func nextDeadline(after now: Date) -> Date? { nil }
        func handleDeadline(now: Date) throws {}
        func close() {}
        func currentFocus() throws -> WindowFacts? { focused }
        func titleRulesChanged() {}
        /// As a window manager does: the app's window goes, and with it the focus.
        func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
            minimized.append(app)
            if let focused, identify(focused) == app { focus(nil) }
        }
        func setThreshold(_ threshold: TimeInterval) throws {}
        func set(_ filter: ColorFilter, now: Date) throws -> Date? {
            filters.append(filter)
            return nil
        }
        func step(now: Date) throws -> Date? { nil }
        func restore() {}

        var desktop: Desktop {
            let choices = DesktopCapability.allCases.map {
                ProviderChoice(capability: $0, kind: .x11, providerName: providerName, reason: "scripted by the test", skipped: [])
            }
            return Desktop(focus: self, windows: self, idle: self, filter: self, connections: [self], choices: choices)
        }
    }

    var folder: URL!
    var bus: PrivateBus!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("in-process-\(UUID().uuidString.prefix(8))")
        bus = try PrivateBus(directory: folder.appendingPathComponent("bus"))
    }

    override func tearDownWithError() throws {
        bus.kill()
        try? FileManager.default.removeItem(at: folder)
    }

    func environment(config: String) throws -> [String: String] {
        try InProcessHome.environment(home: folder.appendingPathComponent("home"), runtime: folder.appendingPathComponent("runtime"),
                                      busAddress: bus.address, config: config)
    }

    func writeConfig(_ config: String, _ environment: [String: String]) throws { try InProcessHome.writeConfig(config, environment) }

    func startAgent(_ environment: [String: String], clock: VirtualClock, desktop: ScriptedDesktop) throws -> AgentRunner {
        var options = AgentRunner.Options(environment: environment)
        options.clock = clock
        options.desktop = { _ in desktop.desktop }
        let agent = try AgentRunner(options: options)
        try agent.start()
        return agent
    }

    /// Moves the clock on by `seconds` in turns of at most `step`, the loop served at each.
    func live(_ seconds: TimeInterval, step: TimeInterval = 60, _ agent: AgentRunner, _ clock: VirtualClock) throws {
        var left = seconds
        while left > 0 {
            let moved = min(step, left)
            clock.advance(moved)
            left -= moved
            try agent.turn(waitingAtMost: 0)
        }
    }

    func testAWeekOfAUsersLifeRunsInProcessOnAVirtualClock() throws {
        let started = ContinuousClock.now
        let zone = SystemTimeZone()
        // Monday 1 June 2026, 08:00 in the suite's zone: each day starts at 04:00.
        func local(day: Int, hour: Int) -> Date {
            zone.instant(of: CivilDate(year: 2026, month: 6, day: 1 + day), at: WallTime(secondsOfDay: hour * 3600))
        }
        let monday = local(day: 0, hour: 8)
        let clock = VirtualClock(monday)
        let desktop = ScriptedDesktop()
        let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[limits]\ndefault = 3h\n"
        let environment = try environment(config: config)
        var agent = try startAgent(environment, clock: clock, desktop: desktop)
        var expected: [Int: [AppID: TimeInterval]] = [:]

        for day in 0..<7 {
            var today: [AppID: TimeInterval] = [:]
            // The morning: two hours of notes, a pause away from the keyboard, an hour of the editor.
            // From Thursday notes has 30 minutes a day: minimized then, and the focus goes with it.
            desktop.focus("stnotes")
            try live(2 * 3600, agent, clock)
            today["stnotes", default: 0] += day > 2 ? 1800 : 2 * 3600
            desktop.idle(true, at: clock.wall)
            try live(30 * 60, agent, clock)
            desktop.idle(false, at: clock.wall)
            desktop.focus("steditor", window: 2)
            try live(3600, agent, clock)
            today["steditor", default: 0] += 3600

            if day == 2 {
                // Wednesday: a limit on notes, set by editing the config as the CLI does. The agent
                // sees the file change in the same turn and disables notes at once (2 h used today).
                try writeConfig(config + "stnotes = 30m\n", environment)
                try live(1, agent, clock)
                desktop.focus("stnotes")
                try live(60, agent, clock)
                XCTAssertEqual(desktop.minimized.last, AppID("stnotes"), "over its new limit: minimized")
                XCTAssertEqual(agent.status(at: clock.wall).apps.first { $0.id == "stnotes" }?.state, "disabled")
                // Continue, as the card's button asks: the grant counts.
                agent.send(.continueRequested(AppID("stnotes")))
                desktop.focus("stnotes")
                try live(60, agent, clock)
                today["stnotes", default: 0] += 60
                desktop.focus("steditor", window: 2)
                try live(1, agent, clock)
                today["steditor", default: 0] += 1
                try live(300, agent, clock)
                today["steditor", default: 0] += 300
            }
            if day == 4 {
                // Friday: the agent restarts (a login); what it counted is in the store.
                agent.shutDown(reason: "a test's restart")
                agent = try startAgent(environment, clock: clock, desktop: desktop)
                try live(60, agent, clock)
                today["steditor", default: 0] += 60
            }
            // The evening: the laptop closed for the night (a suspend), nothing counted while asleep.
            desktop.focus(nil)
            try live(1, agent, clock)
            expected[day] = today
            clock.suspend(local(day: day + 1, hour: 8).timeIntervalSince(clock.wall))
            try live(1, agent, clock)
        }
        agent.shutDown(reason: "the end of the week")

        let store = try UsageDatabase(path: XDGPaths.databaseFile(environment: environment), readOnly: true)
        XCTAssertEqual(desktop.minimized.filter { $0 == AppID("stnotes") }.count, 5, "at the new limit, then each day from Thursday")
        for day in 0..<7 {
            let start = local(day: day, hour: 4)
            let stored = try store.usageByApp(from: start, to: start.addingTimeInterval(86400))
            for (app, seconds) in expected[day] ?? [:] {
                XCTAssertEqual(stored[app] ?? 0, seconds, accuracy: 61, "day \(day), \(app)")
            }
            XCTAssertNil(stored[AppID("screentime")], "day \(day): nothing counted as the agent")
        }
        let took = started.duration(to: .now)
        print("in-process week: \(took)")
        XCTAssertLessThan(took, .seconds(10), "a week of a user's life in well under 10 s")
    }
}
