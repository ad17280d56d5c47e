import Foundation
import ScreenTimeCore
import SyncFolder
import Harnesses
import Synchronization
import XCTest

/// Two computers on real parts: two agents on two private X desktops (separate homes), each
/// joined to its own copy of one folder, the copies kept the same by real Syncthings on 127.0.0.1
/// only, or by `rsync` at random moments (any other sync engine). A limit shared between them:
/// used on A for most of it, then on B, which disables the app when the whole is spent.
final class SyncDesktopTests: XCTestCase {
    static let limit: TimeInterval = 20
    static let usedOnA: TimeInterval = 14
    static let config = "[general]\nidle-after = 1h\n[limits]\nstnotes = 20s\n"

    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sync-desk-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func testASharedLimitThroughSyncthing() throws {
        let folderA = root.appendingPathComponent("a/Sync"), folderB = root.appendingPathComponent("b/Sync")
        let a = try SyncthingPeer(home: root.appendingPathComponent("a/syncthing"), folder: folderA)
        let b = try SyncthingPeer(home: root.appendingPathComponent("b/syncthing"), folder: folderB)
        try a.configure(peers: [b])
        try b.configure(peers: [a])
        try a.start()
        try b.start()
        defer { a.stop(); b.stop() }
        // The two are connected once a file written on A is on B.
        try "probe".write(to: folderA.appendingPathComponent("probe.txt"), atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually(60) { FileManager.default.fileExists(atPath: folderB.appendingPathComponent("probe.txt").path) },
                      "syncthing did not connect; A's log: \(a.log)\nB's log: \(b.log)")
        let (agentA, agentB) = try runSharedLimit(folderA: folderA, folderB: folderB, engine: "syncthing")
        defer { _ = agentA.stop(); _ = agentB.stop() }
        // A limit set on B applies on A.
        XCTAssertEqual(try agentB.cli(["limit", "set", "stvideo", "7m"]).status, 0)
        XCTAssertTrue(try eventually(30) { try limit("stvideo", agentA) == "7m" }, "A's log: \(agentA.log)")
        // A Cheat Day booked on A is booked on B.
        let booked = try agentA.cli(["cheat-day", "book", "tomorrow 20:00"])
        XCTAssertEqual(booked.status, 0, booked.err)
        let onA = try agentA.cli(["cheat-day", "list"]).out
        XCTAssertTrue(onA.contains(" 20:00 to "), onA)
        var onB = ""
        XCTAssertTrue(try eventually(30) { onB = try agentB.cli(["cheat-day", "list"]).out; return onB == onA },
                      "A: \(onA), B: \(onB); B's log: \(agentB.log)")
        // The same key changed on both while their Syncthings are paused ends the same on both: the later change.
        try a.setPaused(true)
        try b.setPaused(true)
        XCTAssertEqual(try agentA.cli(["limit", "set", "stgame", "10m"]).status, 0)
        usleep(50_000) // B's change the later one, by its time
        XCTAssertEqual(try agentB.cli(["limit", "set", "stgame", "20m"]).status, 0)
        // Time used on B meanwhile: A has none of it while paused, then all of it once.
        let windowsB = try TestWindowClient(display: try DesktopHarness.separate(named: "desk-b").display)
        let reading = try windowsB.openWindow(class: "StReading", title: "Reading")
        windowsB.activate(reading)
        XCTAssertTrue(try eventually(10) { try reportedSeconds(agentB, app: "streading") > 2 }, agentB.log)
        windowsB.close([reading])
        XCTAssertTrue(try eventually(5) { try status(agentB).focused != "streading" }, agentB.log)
        let readOnB = try reportedSeconds(agentB, app: "streading")
        usleep(1_500_000) // the thing checked: while paused, nothing arrives in that time
        XCTAssertEqual(try limit("stgame", agentA), "10m", "paused: nothing arrives")
        XCTAssertEqual(try reportedSeconds(agentA, app: "streading"), 0, "paused: none of B's time arrives")
        try a.setPaused(false)
        try b.setPaused(false)
        let resumed = Date()
        let converged = try eventually(60) { try limit("stgame", agentA) == "20m" && limit("stgame", agentB) == "20m" }
        let onBoth = (try limit("stgame", agentA) ?? "none", try limit("stgame", agentB) ?? "none")
        XCTAssertTrue(converged, "A: \(onBoth.0), B: \(onBoth.1); A's log: \(agentA.log)")
        XCTAssertTrue(try eventually(30) { abs(try reportedSeconds(agentA, app: "streading") - readOnB) < 0.5 },
                      "B's time while paused reaches A, once: \((try? reportedSeconds(agentA, app: "streading")) ?? -1) of \(readOnB) s")
        print(String(format: "sync-figure: syncthing: resumed after a pause, both computers agree in %.1f s", Date().timeIntervalSince(resumed)))
        usleep(1_500_000) // later writes of the same day must not add it again
        XCTAssertEqual(try reportedSeconds(agentA, app: "streading"), readOnB, accuracy: 0.5, "not doubled")
        // A conflict copy of A's day and a torn temporary file in B's copy (Syncthing takes them to A's):
        // nothing doubled on either, the copy named.
        let dayFile = try XCTUnwrap(FileManager.default.subpaths(atPath: folderB.path)?.first { $0.hasPrefix("laptop-") && $0.hasSuffix(".day") })
        let conflict = dayFile.replacingOccurrences(of: ".day", with: ".sync-conflict-20260601-120000-ABCDEFG.day")
        try FileManager.default.copyItem(atPath: folderB.path + "/" + dayFile, toPath: folderB.path + "/" + conflict)
        try "screentime-day\t1\ndevice".write(toFile: folderB.path + "/" + (dayFile as NSString).deletingLastPathComponent + "/.syncthing.torn.day.tmp",
                                              atomically: false, encoding: .utf8)
        XCTAssertTrue(eventually(30) { FileManager.default.fileExists(atPath: folderA.path + "/" + conflict) })
        usleep(1_500_000) // time for the agents to read the copies: a doubling would show after it
        XCTAssertEqual(try used(agentA), Self.limit, accuracy: 1)
        XCTAssertEqual(try used(agentB), Self.limit, accuracy: 1)
        XCTAssertTrue(try agentB.cli(["sync", "status"]).out.contains("conflict copy"))
        // B leaves: it counts its own time only; A still counts B's last written day.
        XCTAssertEqual(try agentB.cli(["sync", "leave"]).status, 0)
        let alone = try XCTUnwrap(try status(agentB).apps.first { $0.id == "stnotes" }).usedSeconds
        XCTAssertTrue(try eventually(5) { try used(agentB) < Self.limit - 1 }, "B alone: \(alone)")
        XCTAssertEqual(try used(agentA), Self.limit, accuracy: 1)
        // Nothing but each other on 127.0.0.1: no relay, discovery server, STUN or port mapping was tried.
        for log in [a.log, b.log] {
            XCTAssertTrue(log.contains("Established secure connection"), log)
            for word in ["relays.syncthing.net", "discovery.syncthing.net", "stun.", "upnp", "nat-pmp", "data.syncthing.net", "upgrades.syncthing.net"] {
                XCTAssertFalse(log.lowercased().contains(word), "syncthing's log mentions \(word): \(log)")
            }
        }
    }

    func testASharedLimitThroughRsyncAtRandomMoments() throws {
        let (folderA, folderB, copier) = try foldersCopiedByRsync()
        defer { copier.stop() }
        let (agentA, agentB) = try runSharedLimit(folderA: folderA, folderB: folderB, engine: "rsync")
        _ = agentA.stop()
        _ = agentB.stop()
    }

    /// A's clock 10 minutes ahead of B's (libfaketime under A's agent, the folder copied by
    /// rsync): the shared limit holds to the second, nothing doubled or lost; and a limit B sets
    /// after seeing A's wins on both, though B's clock dates it earlier.
    func testASharedLimitWithOneClockTenMinutesAhead() throws {
        let (folderA, folderB, copier) = try foldersCopiedByRsync()
        defer { copier.stop() }
        let ahead = ["LD_PRELOAD": "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "FAKETIME": "+10m",
                     "DONT_FAKE_MONOTONIC": "1"]
        let (agentA, agentB) = try runSharedLimit(folderA: folderA, folderB: folderB, engine: "rsync-clock-ahead", agentOnlyA: ahead)
        defer { _ = agentA.stop(); _ = agentB.stop() }
        // A's agent did run ahead: the day it last wrote is dated by its clock.
        let laptop = try XCTUnwrap(SyncFolder(root: folderB.path).read().sortedDevices.first { $0.name == "laptop" })
        let written = try XCTUnwrap(laptop.lastWritten)
        XCTAssertEqual(written.timeIntervalSinceNow, 600, accuracy: 60, "A's files are dated 10 minutes ahead")
        // B's doctor names it, A's does not (B's clock is behind A's, which files cannot tell).
        let doctorB = try agentB.cli(["doctor"]).out, doctorA = try agentA.cli(["doctor"]).out
        XCTAssertTrue(doctorB.contains("Problem: laptop's clock is at least") && doctorB.contains("warn sync"), doctorB)
        XCTAssertFalse(doctorA.contains("clock is at least"), doctorA)
        // The later change wins whatever the clocks say: A's first, then B's once it has A's.
        XCTAssertEqual(try agentA.cli(["limit", "set", "stgame", "40m"]).status, 0)
        XCTAssertTrue(try eventually(30) { try limit("stgame", agentB) == "40m" }, "B's log: \(agentB.log)")
        XCTAssertEqual(try agentB.cli(["limit", "set", "stgame", "35m"]).status, 0)
        let converged = try eventually(30) { try limit("stgame", agentA) == "35m" && limit("stgame", agentB) == "35m" }
        let onBoth = (try limit("stgame", agentA) ?? "none", try limit("stgame", agentB) ?? "none")
        XCTAssertTrue(converged, "B's later change, dated 10 minutes before A's by the clocks: A \(onBoth.0), B \(onBoth.1); "
                      + "A's log: \(agentA.log)\nB's log: \(agentB.log)")
    }

    /// The two computers' copies of the folder, kept the same by `rsync` at random moments.
    private func foldersCopiedByRsync() throws -> (URL, URL, RandomCopies) {
        let folderA = root.appendingPathComponent("a/Sync"), folderB = root.appendingPathComponent("b/Sync")
        try FileManager.default.createDirectory(at: folderA, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folderB, withIntermediateDirectories: true)
        return (folderA, folderB, try RandomCopies(between: folderA, and: folderB))
    }

    private func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    private func used(_ agent: AgentProcess) throws -> TimeInterval {
        try status(agent).apps.first { $0.id == "stnotes" }?.usedSeconds ?? 0
    }

    /// What the folder copy holds of `device`'s stnotes today.
    private func inFolder(_ folder: URL, _ name: String) -> TimeInterval {
        SyncFolder(root: folder.path).read().sortedDevices.first { $0.name == name }?.days.values.map { $0.appTotals["stnotes"] ?? 0 }.max() ?? 0
    }

    private func reportedSeconds(_ agent: AgentProcess, app: String = "stnotes") throws -> TimeInterval {
        let result = try agent.cli(["report", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let apps = json?["apps"] as? [[String: Any]] ?? []
        return apps.first { $0["id"] as? String == app }?["seconds"] as? Double ?? 0
    }

    private func limit(_ app: String, _ agent: AgentProcess) throws -> String? {
        let out = try agent.cli(["config", "get", "limits.\(app)"])
        return out.status == 0 ? out.out.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// The shared limit's scenario; the two agents, still running, for what the caller checks next.
    private func runSharedLimit(folderA: URL, folderB: URL, engine: String,
                                agentOnlyA: [String: String] = [:]) throws -> (AgentProcess, AgentProcess) {
        let deskA = try DesktopHarness.shared()
        let deskB = try DesktopHarness.separate(named: "desk-b")  // the second computer, for every engine in turn
        let environmentA = try AgentProcess.freshEnvironment(on: deskA, config: Self.config)
        let environmentB = try AgentProcess.freshEnvironment(on: deskB, config: Self.config)
        XCTAssertEqual(try AgentProcess.run(["sync", "join", folderA.path, "--name", "laptop"], environment: environmentA).status, 0)
        XCTAssertEqual(try AgentProcess.run(["sync", "join", folderB.path, "--name", "desktop"], environment: environmentB).status, 0)
        let agentA = try AgentProcess(environment: environmentA, desk: deskA, agentOnly: agentOnlyA)
        let agentB = try AgentProcess(environment: environmentB, desk: deskB)
        let windowsA = try TestWindowClient(display: deskA.display)
        let windowsB = try TestWindowClient(display: deskB.display)

        // Most of the limit on A, then another app there.
        let notesA = try windowsA.openWindow(class: "StNotes", title: "Notes")
        let otherA = try windowsA.openWindow(class: "StOther", title: "Other")
        windowsA.activate(notesA)
        XCTAssertTrue(try eventually(Self.usedOnA + 10) { try used(agentA) >= Self.usedOnA }, agentA.log)
        windowsA.activate(otherA)
        let switched = Date()
        XCTAssertTrue(try eventually(5) { try status(agentA).focused == "stother" }, agentA.log)
        let onA = try used(agentA)
        // A's write, its arrival in B's copy, and B's agent counting it.
        var writtenOnA: Date?, arrivedOnB: Date?, countedOnB: Date?
        XCTAssertTrue(try eventually(60) {
            if writtenOnA == nil, inFolder(folderA, "laptop") >= onA - 0.01 { writtenOnA = Date() }
            if arrivedOnB == nil, inFolder(folderB, "laptop") >= onA - 0.01 { arrivedOnB = Date() }
            if countedOnB == nil, try used(agentB) >= onA - 0.01 { countedOnB = Date() }
            return countedOnB != nil && arrivedOnB != nil
        }, "B never counted A's \(onA) s; B's log: \(agentB.log)")
        let total = countedOnB!.timeIntervalSince(switched)
        let engineShare = arrivedOnB!.timeIntervalSince(writtenOnA ?? switched)
        print("sync-figure: \(engine): A's switch to B's agent counting it \(String(format: "%.2f", total)) s, "
              + "of which the copy from A's folder to B's \(String(format: "%.2f", engineShare)) s")

        // The rest of the limit on B: disabled when the whole is spent.
        let notesB = try windowsB.openWindow(class: "StNotes", title: "Notes")
        let startedOnB = Date()
        windowsB.activate(notesB)
        XCTAssertTrue(eventually(Self.limit - onA + 10) { windowsB.wmState(notesB) == 3 }, "B disables notes; log: \(agentB.log)")
        let disabledAfter = Date().timeIntervalSince(startedOnB)
        XCTAssertEqual(disabledAfter, Self.limit - onA, accuracy: 2, "at the shared limit, not B's own")
        let onB = try XCTUnwrap(try status(agentB).apps.first { $0.id == "stnotes" }).usedSeconds
        XCTAssertEqual(onB, Self.limit, accuracy: 1)
        // B's time reaches A; both reports show the same total and each computer's part.
        XCTAssertTrue(try eventually(30) { abs(try used(agentA) - onB) < 0.5 }, "A counts B's time; A's log: \(agentA.log)")
        let reportA = try reportedSeconds(agentA), reportB = try reportedSeconds(agentB)
        XCTAssertEqual(reportA, reportB, accuracy: 0.5)
        print("sync-figure: \(engine): shared limit \(Int(Self.limit)) s, used \(String(format: "%.2f", reportB)) s in all "
              + "(overshoot \(String(format: "%.2f", reportB - Self.limit)) s); B disabled it \(String(format: "%.2f", disabledAfter)) s after its start")
        let computers = try agentB.cli(["report"]).out
        XCTAssertTrue(computers.contains("Computers") && computers.contains("laptop") && computers.contains("desktop (this computer)"), computers)
        let doctor = try agentB.cli(["sync", "status"]).out
        XCTAssertTrue(doctor.contains("laptop (device"), doctor)
        windowsA.close([notesA, otherA])
        windowsB.close([notesB])
        return (agentA, agentB)
    }
}

/// `rsync` copying two folders both ways at random moments (0.1 to 1.5 s apart), never over a
/// newer copy: a sync engine the agent knows nothing of.
final class RandomCopies: Sendable {
    private struct Progress {
        var stopped = false
        var finished = false
    }

    private let progress = Mutex(Progress())

    init(between a: URL, and b: URL) throws {
        let rsync = try DesktopHarness.which("rsync")
        Thread { [self] in
            var random = SplitMix64(seed: 0x5EED_5CAD)
            defer { progress.withLock { $0.finished = true } }
            while true {
                // A nap cut short by stop(), seen within 10 ms.
                if Wait.poll(timeout: Double.random(in: 0.1...1.5, using: &random), every: 0.01, { isStopped }) { break }
                for (from, to) in [(a, b), (b, a)].shuffled(using: &random) {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: rsync)
                    process.arguments = ["-rt", "--update", from.path + "/", to.path + "/"]
                    try? process.run()
                    process.waitUntilExit()
                }
            }
        }.start()
    }

    private var isStopped: Bool { progress.withLock { $0.stopped } }

    /// Returns once the copy under way, if any, has ended.
    func stop() {
        progress.withLock { $0.stopped = true }
        while !Wait.poll(timeout: 60, every: 0.01, { progress.withLock { $0.finished } }) {}
    }
}
