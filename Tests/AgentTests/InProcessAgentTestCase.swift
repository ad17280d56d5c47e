import Foundation
import Harnesses
import ScreenTimeCore
import XCTest
@testable import Agent

/// The whole agent in the test's process: the real loop, engine, resolver, store (a temporary
/// SQLite file), file watches and `AgentService` on a private bus, with scripted desktop providers
/// and a virtual clock. Each test gets a fresh folder with its own bus; subclasses hold the tests.
class InProcessAgentTestCase: XCTestCase {
    /// The wall clock a test moves; the monotonic one moves with it, except across a suspend.
    final class VirtualClock: AgentClock {
        var wall: Date
        private var monotonic = MonotonicInstant.now()

        init(_ start: Date) { wall = start }

        func read() -> ClockReading { ClockReading(wall: wall, monotonic: monotonic) }

        func advance(_ seconds: TimeInterval) {
            wall = wall.addingTimeInterval(seconds)
            monotonic = monotonic.advanced(by: seconds)
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
        try Self.startedAgent(environment, clock: clock, desktop: desktop)
    }

    /// An agent started in this process on `desktop`, its time from `clock` (for tests with homes of their own).
    static func startedAgent(_ environment: [String: String], clock: VirtualClock, desktop: ScriptedDesktop) throws -> AgentRunner {
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
}
