import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest

/// Suspend and lock, from logind (a stand-in on a private system bus) and the screen saver
/// services: the running interval ends when they say so, nothing counts meanwhile, and counting
/// resumes on wake and unlock.
final class SessionLockDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    func startAgent(extra: [String: String]) throws -> AgentProcess {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        return try AgentProcess(environment: environment.merging(extra) { $1 }, desk: desk)
    }


    func focus(_ app: AppID, _ agent: AgentProcess) throws {
        let window = try windows.openWindow(class: app.rawValue.capitalized, title: app.rawValue)
        addTeardownBlock { [windows] in windows?.close(window) } // later tests start from an empty desktop
        windows.activate(window)
        XCTAssertTrue(eventually { agent.isCounting(app) }, agent.log)
    }

    /// Sends what takes the user away, checks nothing counts after it, then what brings them back.
    /// Returns when the going-away was sent.
    func awayAndBack(_ app: AppID, _ agent: AgentProcess, _ what: String,
                     away: () throws -> Void, back: () throws -> Void) throws -> Date {
        // Each interval has a length to end: the agent has counted some of it.
        let resumed = try agent.usedSeconds(app)
        try Wait.until("\(what): \(app) counted before going away", detail: agent.log) { try agent.usedSeconds(app) > resumed + 0.1 }
        let sent = Date()
        try away()
        XCTAssertTrue(eventually(2) { !agent.isCounting(app) }, "\(what): \(agent.log)")
        let used = try agent.usedSeconds(app)
        usleep(600_000) // the thing checked: time away that must not count
        XCTAssertEqual(try agent.usedSeconds(app), used, accuracy: 0.01,
                       "\(what): nothing counts meanwhile")
        try back()
        XCTAssertTrue(eventually(2) { agent.isCounting(app) }, "\(what), back: \(agent.log)")
        return sent
    }

    /// Checks each interval of `app` ended when its going-away was sent; prints the lags.
    func checkIntervalsEnd(_ app: AppID, at sent: [Date], _ agent: AgentProcess, _ labels: [String]) throws {
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let intervals = try UsageDatabase(path: agent.databasePath, readOnly: true)
            .intervals(from: Date().addingTimeInterval(-3600), to: Date().addingTimeInterval(3600))
            .filter { $0.app == app }.sorted { $0.start < $1.start }
        XCTAssertEqual(intervals.count, sent.count + 1, "\(intervals)")
        for (index, (interval, at)) in zip(intervals, sent).enumerated() {
            let lag = interval.end.timeIntervalSince(at)
            XCTAssertEqual(lag, 0, accuracy: 0.25, "\(labels[index]): the interval ends when it was sent")
            print("\(labels[index]): interval ended \(String(format: "%.1f", lag * 1000)) ms after the signal was sent")
        }
    }

    func testSleepAndLockFromLogindEndTheIntervalAndWakeAndUnlockResume() throws {
        let logind = try StandInLogind(in: desk.root)
        let agent = try startAgent(extra: logind.environment)
        try focus("laptop", agent)
        let labels = ["PrepareForSleep(true)", "Lock", "LockedHint true"]
        let sent = [
            try awayAndBack("laptop", agent, labels[0], away: { try logind.prepareForSleep(true) },
                            back: { try logind.prepareForSleep(false) }),
            try awayAndBack("laptop", agent, labels[1], away: { try logind.lock() }, back: { try logind.unlock() }),
            try awayAndBack("laptop", agent, labels[2], away: { try logind.setLockedHint(true) },
                            back: { try logind.setLockedHint(false) }),
        ]
        XCTAssertEqual(try agent.status().backends["logind"], "sleep, lock")
        let doctor = try agent.cli(["doctor"]).out
        XCTAssertTrue(doctor.contains("ok   logind"), doctor)
        try checkIntervalsEnd("laptop", at: sent, agent, labels)
    }

    /// A real suspend as the agent sees it: PrepareForSleep, the wall clock two hours on (the
    /// monotonic clock stood still), PrepareForSleep(false).
    func testASuspendCountsNothingOfTheSleepAndCountingResumesOnWake() throws {
        let logind = try StandInLogind(in: desk.root)
        let clock = try SteppedClock(in: desk.root)
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let agent = try AgentProcess(environment: environment.merging(logind.environment) { $1 }, desk: desk,
                                     agentOnly: clock.environment)
        try focus("laptop", agent)
        let start = Date()
        usleep(1_000_000) // real time awake that counts, before and after the suspend
        try logind.prepareForSleep(true)
        XCTAssertTrue(eventually(2) { !agent.isCounting("laptop") }, agent.log)
        let slept = Date()
        try clock.set(offset: 7200)
        usleep(500_000) // the suspend's own length, in which the agent sees nothing
        try logind.prepareForSleep(false)
        let woke = Date()
        XCTAssertTrue(eventually(2) { agent.isCounting("laptop") }, agent.log)
        usleep(1_000_000) // real time awake again
        let awake = Date().timeIntervalSince(start) - woke.timeIntervalSince(slept)
        let counted = try agent.usedSeconds("laptop")
        XCTAssertEqual(counted, awake, accuracy: 0.5, "nothing of the sleep counts: \(agent.log)")
        print("suspend of 2 h (clock +2 h between PrepareForSleep true and false): \(String(format: "%.1f", counted)) s counted "
              + "over \(String(format: "%.1f", awake)) s awake")
    }

    func testTheScreenSaverServicesActiveChangedEndsTheIntervalAndResumes() throws {
        let agent = try startAgent(extra: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(desk.root.path)/no-system-bus"])
        let saver = try BusConnection(address: desk.busAddress)
        func activeChanged(_ interface: String, _ active: Bool) throws {
            try saver.emitSignal(path: "/org/freedesktop/ScreenSaver", interface: interface, member: "ActiveChanged",
                                 arguments: [.bool(active)])
            saver.flush()
        }
        try focus("viewer", agent)
        let labels = ["org.freedesktop.ScreenSaver", "org.gnome.ScreenSaver"]
        let sent = try labels.map { interface in
            try awayAndBack("viewer", agent, interface, away: { try activeChanged(interface, true) },
                            back: { try activeChanged(interface, false) })
        }
        XCTAssertTrue(agent.log.contains("no logind on the system bus"), "without logind the agent says so and carries on")
        XCTAssertEqual(try agent.status().backends["logind"], "none")
        XCTAssertTrue(try agent.cli(["doctor"]).out.contains("warn logind"))
        try checkIntervalsEnd("viewer", at: sent, agent, labels.map { "\($0) ActiveChanged(true)" })
    }

    /// The lock's end greets the user with the mode's card in Social (here its notification, as
    /// where no card can be shown), after logind's Unlock and after a screen saver's
    /// ActiveChanged(false); in Standard an unlock shows nothing.
    func testAnUnlockInSocialShowsTheModesCardAndInStandardNothing() throws {
        let logind = try StandInLogind(in: desk.root)
        let monitor = try BusMonitor(address: desk.busAddress)
        let agent = try startAgent(extra: logind.environment.merging(["SCREENTIME_CARD": "off"]) { $1 })
        let saver = try BusConnection(address: desk.busAddress)
        func greetings() throws -> [BusMonitor.NotifyCall] {
            try monitor.drain()
            return monitor.notifyCalls.filter { $0.summary.hasPrefix("Welcome back") }
        }

        // Each step waits until the agent's status shows it taken in: a greeting it sent went to the
        // bus before the status's reply.
        func seen(_ what: String, away: Bool) throws {
            try Wait.until("the agent to take in \(what)", detail: agent.log) { try agent.status().active != away }
        }
        try logind.lock()
        try seen("Lock", away: true)
        try logind.unlock()
        try seen("Unlock", away: false)
        XCTAssertEqual(try greetings().count, 0, "no greeting in Standard")

        XCTAssertEqual(try agent.cli(["mode", "social"]).status, 0)
        try logind.lock()
        try seen("Lock in Social", away: true)
        XCTAssertEqual(try greetings().count, 0, "locking greets nobody")
        try logind.unlock()
        let greeting = try monitor.waitForNotify { $0.summary == "Welcome back: Social mode" }
        XCTAssertEqual(greeting.icon, "screentime-social")
        XCTAssertTrue(greeting.body.contains("`screentime mode`"), greeting.body)

        for active in [true, false] {
            try saver.emitSignal(path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver",
                                 member: "ActiveChanged", arguments: [.bool(active)])
            saver.flush()
            try seen("ActiveChanged(\(active))", away: active)
        }
        XCTAssertTrue(try eventually { try greetings().count == 2 }, agent.log)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }
}
