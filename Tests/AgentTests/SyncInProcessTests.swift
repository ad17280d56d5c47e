import AgentControl
import Foundation
import LocalSystem
import ScreenTimeCore
import SyncFolder
import Harnesses
import XCTest
@testable import Agent

/// Two whole agents in the test's process (`InProcessAgentTestCase`'s scripted desktop and virtual
/// clock), each with its own home, store and bus, joined to one folder: one budget between them.
final class SyncInProcessTests: XCTestCase {
    typealias VirtualClock = InProcessAgentTestCase.VirtualClock
    typealias ScriptedDesktop = InProcessAgentTestCase.ScriptedDesktop

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
        let environment = try InProcessHome.environment(home: home, runtime: home.appendingPathComponent("runtime"),
                                                        busAddress: bus.address, config: config)
        if let folder {
            var membership = SyncMembership.load(environment: environment)
            membership.folder = folder
            membership.name = name
            try membership.save(environment: environment)
        }
        let desktop = ScriptedDesktop()
        let agent = try InProcessAgentTestCase.startedAgent(environment, clock: clock, desktop: desktop)
        // Without inotify the files would be looked at every 30 s, not at the turns these tests count.
        XCTAssertGreaterThanOrEqual(agent.fileWatches.fileDescriptor, 0, "no inotify instance left on this machine (fs.inotify.max_user_instances)")
        return Computer(agent: agent, desktop: desktop, environment: environment)
    }

    /// Both computers' loops, a turn each per `step` of the clock (of each clock, when their
    /// clocks differ).
    private func live(_ seconds: TimeInterval, step: TimeInterval = 1, _ computers: [Computer], _ clocks: VirtualClock...) throws {
        var left = seconds
        while left > 0 {
            for clock in clocks { clock.advance(min(step, left)) }
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

    /// What any sync engine does, by hand: each device's files copied from one folder to the
    /// other, never over a newer copy (as `rsync --update`).
    private func copy(from source: String, to destination: String) throws {
        let manager = FileManager.default
        func modified(_ path: String) -> Date? { (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        for device in try manager.contentsOfDirectory(atPath: source) where SyncFolderLayout.device(ofFolder: device) != nil {
            try manager.createDirectory(atPath: destination + "/" + device, withIntermediateDirectories: true)
            for file in try manager.contentsOfDirectory(atPath: source + "/" + device) {
                let target = destination + "/" + device + "/" + file
                if let there = modified(target), let here = modified(source + "/" + device + "/" + file), there >= here { continue }
                try? manager.removeItem(atPath: target)
                try manager.copyItem(atPath: source + "/" + device + "/" + file, toPath: target)
            }
        }
    }

    private func limit(_ computer: Computer) throws -> String? {
        try ConfigEditor(path: computer.agent.config.path).document().value("stnotes", in: "limits")
    }

    private func setLimit(_ value: String, on computer: Computer) throws {
        try ConfigEditor(path: computer.agent.config.path).edit { $0.set("stnotes", to: value, in: "limits") }
    }

    /// The settings that make the budget are shared: a limit set on one computer applies on the
    /// other when its files arrive; one key changed on both while their folders were apart ends
    /// the same on both, the later change, whichever folder's files arrive first.
    func testSharedSettingsEndTheSameWhateverArrivesFirst() throws {
        let zone = SystemTimeZone()
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 9, minute: 0)))
        let folderA = root.appendingPathComponent("a-Sync").path, folderB = root.appendingPathComponent("b-Sync").path
        for folder in [folderA, folderB] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        // Loosening at once (`[commitment]` stays local): what is checked here is the merge; a
        // loosening that arrives from another computer waits for the day start like any other.
        let base = "[general]\nidle-after = 1h\nday-start = 04:00\n[modes]\nautomatic = off\nbreaks = off\n[commitment]\nloosen = now\n"
        let a = try computer("laptop", config: base + "[limits]\nstnotes = 30m\n[privacy]\ntitles = none\n", joining: folderA, clock: clock)
        let b = try computer("desktop", config: base, joining: folderB, clock: clock)
        let both = [a, b]
        func exchange(aFirst: Bool) throws {
            if aFirst { try copy(from: folderA, to: folderB) }
            try copy(from: folderB, to: folderA)
            if !aFirst { try copy(from: folderA, to: folderB) }
            try live(2, both, clock)
        }
        try live(2, both, clock)
        try exchange(aFirst: true)
        XCTAssertEqual(try limit(b), "30m", "A's limit, set before joining, reaches B")
        XCTAssertEqual(b.agent.engine.settings.limits["stnotes"], 30 * 60, "and applies there")
        XCTAssertNil(try ConfigEditor(path: b.agent.config.path).document().value("titles", in: "privacy"), "privacy stays local")

        // Changed on both while apart: B's change is the later one, whichever files arrive first.
        for aFirst in [true, false] {
            try setLimit(aFirst ? "10m" : "12m", on: a)
            try live(2, both, clock)
            try setLimit(aFirst ? "20m" : "22m", on: b)
            try live(2, both, clock)
            try exchange(aFirst: aFirst)
            try exchange(aFirst: !aFirst)
            let later = aFirst ? "20m" : "22m"
            XCTAssertEqual(try limit(a), later)
            XCTAssertEqual(try limit(b), later)
            XCTAssertEqual(a.agent.engine.settings.limits["stnotes"], b.agent.engine.settings.limits["stnotes"])
        }
        // A Cheat Day booked on A is booked on B, as booked on A (its notice counts from then);
        // cancelled on B, it is cancelled on A.
        let start = clock.wall.addingTimeInterval(2 * 86_400)
        try a.agent.store.insertCheatDay(id: "2026-06-03", start: start, bookedAt: clock.wall)
        try live(SyncSource.settingsInterval + 1, both, clock)
        try exchange(aFirst: true)
        let onB = try b.agent.store.cheatDays()
        XCTAssertEqual(onB.map(\.id), ["2026-06-03"])
        XCTAssertEqual(onB.first?.start.timeIntervalSince1970, start.timeIntervalSince1970.rounded(.down))
        try b.agent.store.cancelCheatDay(id: "2026-06-03", at: clock.wall)
        try live(SyncSource.settingsInterval + 1, both, clock)
        try exchange(aFirst: false)
        XCTAssertEqual(try a.agent.store.cheatDays().map(\.id), [], "cancelled on both")
        // A removal is a change like another.
        try ConfigEditor(path: a.agent.config.path).edit { $0.remove("stnotes", in: "limits") }
        try live(2, both, clock)
        try exchange(aFirst: true)
        XCTAssertNil(try limit(b))
        XCTAssertNil(b.agent.engine.settings.limits["stnotes"])
    }

    /// The sync engine paused across the day's start (04:00) and resumed the next morning: the
    /// evening's time stays in its day, the morning's joins the other computer's, and the shared
    /// limit holds to the second once the files arrive; before they do, each counts what it has.
    func testASyncPausedAcrossTheDayStartNeitherDoublesNorLoses() throws {
        let zone = SystemTimeZone()
        let dayOne = CivilDate(year: 2026, month: 6, day: 1), dayTwo = CivilDate(year: 2026, month: 6, day: 2)
        let clock = VirtualClock(zone.instant(of: dayTwo, at: WallTime(hour: 3, minute: 30)))
        let folderA = root.appendingPathComponent("a-Sync").path, folderB = root.appendingPathComponent("b-Sync").path
        for folder in [folderA, folderB] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let config = "[general]\nidle-after = 1h\nday-start = 04:00\n[modes]\nautomatic = off\nbreaks = off\n[limits]\nstnotes = 30m\n"
        let a = try computer("laptop", config: config, joining: folderA, clock: clock)
        let b = try computer("desktop", config: config, joining: folderB, clock: clock)
        let both = [a, b]
        // Paused from the start: A from 03:30 to 04:15, 30 minutes of it before the day's start;
        // B 10 minutes after it.
        a.desktop.focus("stnotes")
        try live(45 * 60, step: 5, both, clock)
        a.desktop.focus("steditor", window: 2)
        b.desktop.focus("stnotes")
        try live(10 * 60, step: 5, both, clock)
        b.desktop.focus("steditor", window: 2)
        try live(2, both, clock)
        let onA = try XCTUnwrap(used("stnotes", on: a, clock)), onB = try XCTUnwrap(used("stnotes", on: b, clock))
        XCTAssertEqual(onA, 15 * 60, accuracy: 5, "A's morning only: the night's 30 minutes were yesterday's")
        XCTAssertEqual(onB, 10 * 60, accuracy: 5, "apart, B counts its own (from its first turn after the focus)")
        XCTAssertTrue(b.desktop.minimized.isEmpty && a.desktop.minimized.isEmpty, "neither reached the shared limit alone")

        // Resumed: each folder gets the other's files.
        try copy(from: folderA, to: folderB)
        try copy(from: folderB, to: folderA)
        try live(2, both, clock)
        XCTAssertEqual(try XCTUnwrap(used("stnotes", on: a, clock)), onA + onB, accuracy: 0.01, "A counts B's morning, not twice")
        XCTAssertEqual(try XCTUnwrap(used("stnotes", on: b, clock)), onA + onB, accuracy: 0.01, "B counts A's morning, not its night")
        let reading = SyncFolder(root: folderB).read()
        let laptop = try XCTUnwrap(reading.sortedDevices.first { $0.name == "laptop" })
        XCTAssertEqual(try XCTUnwrap(laptop.days[dayOne]?.appTotals["stnotes"]), 45 * 60 - onA, accuracy: 0.01, "the night stays in its day")
        XCTAssertEqual(try XCTUnwrap(laptop.days[dayTwo]?.appTotals["stnotes"]), onA, accuracy: 0.01)
        XCTAssertTrue(reading.damaged.isEmpty && reading.conflictCopies.isEmpty)

        // What is left of the shared 30 minutes, on B, to the second.
        let left = 30 * 60 - (onA + onB)
        b.desktop.focus("stnotes")
        try live(left - 2, both, clock)
        XCTAssertTrue(b.desktop.minimized.isEmpty, "usable until the shared limit")
        try live(4, both, clock)
        XCTAssertEqual(b.desktop.minimized, ["stnotes"], "disabled at the shared limit")
        XCTAssertEqual(try XCTUnwrap(used("stnotes", on: b, clock)), 30 * 60, accuracy: 1)
    }

    /// A working day of normal use (8 hours, a dozen apps, a switch every 1 to 10 minutes): what
    /// this device writes to the folder, counted write by write (each write is a new file renamed
    /// over the last, so a new inode).
    func testBytesWrittenToTheFolderInADay() throws {
        let zone = SystemTimeZone()
        let clock = VirtualClock(zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 8, minute: 0)))
        let folder = root.appendingPathComponent("Sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let laptop = try computer("laptop", config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n", joining: folder, clock: clock)
        var random = SplitMix64(seed: 0x5EED_DA7)
        var writes = 0, bytes = 0
        var lastInode: Int?
        func look() throws {
            guard let device = try FileManager.default.contentsOfDirectory(atPath: folder).first(where: { $0.hasPrefix("laptop-") }) else { return }
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + device + "/2026-06-01.day")
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
            if inode != lastInode {
                writes += 1
                bytes += (attributes[.size] as? NSNumber)?.intValue ?? 0
                lastInode = inode
            }
        }
        var elapsed: TimeInterval = 0
        while elapsed < 8 * 3600 {
            laptop.desktop.focus("stapp\(Int.random(in: 0..<12, using: &random))", window: UInt64.random(in: 1...12, using: &random))
            let stay = TimeInterval(Int.random(in: 60...600, using: &random))
            var left = stay
            while left > 0 {
                try live(5, step: 5, [laptop], clock)
                try look()
                left -= 5
            }
            elapsed += stay
        }
        print("sync-figure: a day of 8 h on 12 apps: \(writes) writes, \(bytes) bytes written to the folder (the day file \(bytes / max(1, writes)) bytes on average)")
        XCTAssertGreaterThan(writes, 8 * 3600 / 600)
        XCTAssertLessThan(writes, 8 * 3600 / 20 + 8 * 3600 / 60 + 10, "at most every 20 s while counting, and after each switch")
    }

    /// A's clock 10 minutes ahead of B's: the shared limit holds to the second, and a setting B
    /// changes after seeing A's change wins, though B's clock says it was made earlier.
    func testAClockTenMinutesAheadNeitherDoublesNorLoses() throws {
        let zone = SystemTimeZone()
        let start = zone.instant(of: CivilDate(year: 2026, month: 6, day: 1), at: WallTime(hour: 9, minute: 0))
        let clockA = VirtualClock(start.addingTimeInterval(600)), clockB = VirtualClock(start)
        let folder = root.appendingPathComponent("Sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[limits]\nstnotes = 30m\n"
        let a = try computer("laptop", config: config, joining: folder, clock: clockA)
        let b = try computer("desktop", config: config, joining: folder, clock: clockB)
        let both = [a, b]
        a.desktop.focus("stnotes")
        try live(25 * 60, step: 5, both, clockA, clockB)
        a.desktop.focus("steditor", window: 2)
        try live(2, both, clockA, clockB)
        let onA = try XCTUnwrap(a.agent.engine.usage["stnotes"])
        XCTAssertEqual(used("stnotes", on: b, clockB), onA)
        b.desktop.focus("stnotes")
        try live(6 * 60, both, clockA, clockB)
        XCTAssertEqual(b.desktop.minimized, ["stnotes"])
        XCTAssertEqual(used("stnotes", on: b, clockB), 30 * 60)
        XCTAssertEqual(used("stnotes", on: a, clockA), 30 * 60)

        try setLimit("40m", on: a)
        try live(2, both, clockA, clockB)
        XCTAssertEqual(try limit(b), "40m")
        try setLimit("35m", on: b)
        try live(2, both, clockA, clockB)
        XCTAssertEqual(try limit(a), "35m", "B's later change wins, on a clock 10 minutes behind")
        XCTAssertEqual(try limit(b), "35m")
    }
}
