import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import UsageStore
import XCTest

/// The agent's store under real faults: SIGKILL at random moments, a full disk, read-only files and
/// folders, a deleted `-wal`, a damaged database. Nothing counted may be lost, and `status` says so
/// whenever saving fails.
final class StoreFaultTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    /// Closing the connection takes its windows away, so later tests on the shared desktop start
    /// with nothing focused.
    override func tearDown() {
        windows = nil
        super.tearDown()
    }

    static let config = "[general]\nidle-after = 1h\n"

    func status(_ agent: AgentProcess) throws -> StatusSnapshot {
        let result = try agent.cli(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        return try StatusFormat.decode(result.out)
    }

    /// Focuses a new window of `app`; returns when it was activated and when the agent said it counts it.
    @discardableResult
    func focus(_ app: String, _ agent: AgentProcess) throws -> Date { try focusLog(app, agent).counted }

    func focusLog(_ app: String, _ agent: AgentProcess) throws -> (activated: Date, counted: Date) {
        let window = try windows.openWindow(class: app, title: app)
        let activated = Date()
        windows.activate(window)
        XCTAssertTrue(eventually { (try? self.status(agent).focused) == AppID(app.lowercased()) }, agent.log)
        return (activated, Date())
    }

    func recorded(_ app: String, in path: String, from: Date) throws -> TimeInterval {
        try UsageDatabase(path: path, readOnly: true).usageByApp(from: from.addingTimeInterval(-60), to: Date().addingTimeInterval(60))[AppID(app)] ?? 0
    }

    /// A small disk mounted over the agent's data folder.
    func smallDataDisk(_ environment: [String: String], size: String = "2m") throws -> TmpfsMount {
        try TmpfsMount(at: environment["XDG_DATA_HOME"]! + "/screentime", size: size)
    }

    // MARK: SIGKILL

    func testSIGKILLAtFiftyRandomMomentsLosesAtMostTwoSecondsEach() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        var random = SplitMix64(seed: 7)
        var worstLoss: TimeInterval = 0
        var databasePath = ""
        for round in 0..<50 {
            let agent = try AgentProcess(environment: environment, desk: desk)
            databasePath = agent.databasePath
            // The focus log: what was in front, from when the agent counted it, until the kill.
            let app = "killed\(round % 5)"
            let before = try recorded(app, in: databasePath, from: .distantPast)
            let (activated, counted) = try focusLog(app, agent)
            usleep(UInt32.random(in: 50_000...2_500_000, using: &random)) // the thing tested: a kill at a random moment
            agent.stop(signal: SIGKILL)
            let killed = Date()
            // The database always opens, and holds what was counted up to the last flush.
            let kept = try recorded(app, in: databasePath, from: .distantPast) - before
            let lost = killed.timeIntervalSince(counted) - kept
            worstLoss = max(worstLoss, lost)
            XCTAssertLessThanOrEqual(lost, 2.2, "round \(round): counted from \(counted), killed at \(killed), \(kept) s kept")
            XCTAssertLessThanOrEqual(kept, killed.timeIntervalSince(activated), "round \(round): never more than was in front")
        }
        print("SIGKILL: max lost seconds over 50 kills = \(String(format: "%.2f", worstLoss))")
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.contains(".corrupt-") },
                       "never a damaged database")
    }

    // MARK: A full disk

    func testAFullDiskIsReportedAndNothingIsLostOnceSpaceIsFreedOrAtSIGTERM() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        let disk = try smallDataDisk(environment)
        let agent = try AgentProcess(environment: environment, desk: desk)
        try disk.fill()
        let counted = try focus("Writer", agent)
        XCTAssertTrue(eventually(5) { (try? self.status(agent).savingProblem) != nil }, "the first failed write is reported at once")
        let problem = try XCTUnwrap(status(agent).savingProblem)
        XCTAssertTrue(problem.contains(agent.databasePath), problem)
        XCTAssertTrue(try agent.cli(["status"]).out.contains("Saving problem: usage is not being saved"))
        let doctor = try agent.cli(["doctor"]).out
        XCTAssertTrue(doctor.contains("warn usage saving") || doctor.contains("usage saving  failing"), doctor)
        usleep(2_000_000) // time counted while the disk stays full: what must be saved once space is back

        try disk.freeSpace()
        XCTAssertTrue(eventually(5) { (try? self.status(agent).savingProblem) == .some(nil) }, "recovery is reported")
        let kept = try recorded("writer", in: agent.databasePath, from: counted)
        XCTAssertGreaterThanOrEqual(kept, Date().timeIntervalSince(counted) - 2.2, "the time counted while the disk was full is saved")

        // Full again, then SIGTERM: the exit fails to write, and says so; space back, the next
        // start goes on. Freed space before SIGTERM: everything is kept.
        try disk.fill()
        XCTAssertTrue(eventually(5) { (try? self.status(agent).savingProblem) != nil })
        try disk.freeSpace()
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let total = Date().timeIntervalSince(counted)
        XCTAssertEqual(try recorded("writer", in: agent.databasePath, from: counted), total, accuracy: 0.5, agent.log)
    }

    // MARK: Read-only

    /// A first run that saves some time of "before" (the agent has counted a few tenths of a
    /// second) and stops cleanly: the database and what it holds.
    func firstRunSavingSomeTime(_ environment: [String: String]) throws -> (path: String, saved: TimeInterval) {
        let first = try AgentProcess(environment: environment, desk: desk)
        try focus("Before", first)
        try Wait.until("the first run to count some of Before", detail: first.log) { try first.usedSeconds("before") > 0.3 }
        XCTAssertEqual(first.stop(), 0)
        return (first.databasePath, try recorded("before", in: first.databasePath, from: .distantPast))
    }

    func testAReadOnlyDatabaseIsReportedInsteadOfCounting() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        let disk = try smallDataDisk(environment)
        let (path, saved) = try firstRunSavingSomeTime(environment)
        try disk.makeReadOnly(file: path)
        let agent = try AgentProcess(environment: environment, desk: desk)
        // (Its window is still in front, so it goes on counting.)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(status(agent).apps.first { $0.id == "before" }).usedSeconds, saved,
                                    "today's saved usage still counts")
        let problem = try XCTUnwrap(status(agent).savingProblem, "said before any time is counted")
        XCTAssertTrue(problem.contains("\(path) is read-only"), problem)
        XCTAssertTrue(agent.log.contains("is read-only"), agent.log)
        try focus("Reader", agent)
        XCTAssertNotNil(try status(agent).savingProblem)
    }

    func testAReadOnlyDirectoryIsNamed() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        let disk = try smallDataDisk(environment)
        let saved = try firstRunSavingSomeTime(environment).saved
        try disk.remount(readOnly: true)
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(status(agent).apps.first { $0.id == "before" }).usedSeconds, saved,
                                    "today's saved usage still counts")
        let problem = try XCTUnwrap(status(agent).savingProblem)
        XCTAssertTrue(problem.contains("the directory \(disk.path) is not writable"), problem)
        try focus("Reader", agent)
        XCTAssertNotNil(try status(agent).savingProblem)
        XCTAssertEqual(agent.stop(), 0, agent.log)
        let doctor = try agent.cli(["doctor"]).out
        XCTAssertTrue(doctor.contains("the directory \(disk.path) is not writable"), "doctor says so without the agent too: " + doctor)
        let report = try agent.cli(["report", "--json"])
        XCTAssertEqual(report.status, 0, "what was saved can still be read: " + report.err)
    }

    // MARK: The -wal deleted

    func testADeletedWALLosesNoCommittedTimeAndTheCLIStillReads() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: Self.config), desk: desk)
        let counted = try focus("Journal", agent)
        try Wait.until("a first save of Journal's time", detail: agent.log) {
            ((try? recorded("journal", in: agent.databasePath, from: counted)) ?? 0) > 0
        }
        let savedBefore = try recorded("journal", in: agent.databasePath, from: counted)
        try FileManager.default.removeItem(atPath: agent.databasePath + "-wal")
        let meanwhile = try agent.cli(["report", "--json"])
        XCTAssertEqual(meanwhile.status, 0, "the CLI reads before the agent notices: " + meanwhile.err)
        XCTAssertTrue(eventually(5) { FileManager.default.fileExists(atPath: agent.databasePath + "-wal") }, "a new log within a flush")
        XCTAssertTrue(eventually(2) { agent.log.contains("-wal was deleted") }, agent.log)
        let report = try agent.cli(["report", "--json"])
        XCTAssertEqual(report.status, 0, report.err)
        try Wait.until("a save after the -wal was deleted", detail: agent.log) {
            ((try? recorded("journal", in: agent.databasePath, from: counted)) ?? 0) > savedBefore
        }
        agent.stop(signal: SIGKILL)
        let kept = try recorded("journal", in: agent.databasePath, from: counted)
        XCTAssertGreaterThanOrEqual(kept, Date().timeIntervalSince(counted) - 2.2, "a crash after the deletion loses no committed time")
    }

    // MARK: A damaged database

    func testADamagedDatabaseIsMovedAsideAndAFreshOneStarted() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: Self.config)
        let path = environment["XDG_DATA_HOME"]! + "/screentime/screentime.db"
        try FileManager.default.createDirectory(atPath: environment["XDG_DATA_HOME"]! + "/screentime", withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "not a database ", count: 500).utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: garbage))
        let agent = try AgentProcess(environment: environment, desk: desk)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let aside = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("screentime.db.corrupt-") })
        XCTAssertEqual(FileManager.default.contents(atPath: folder + "/" + aside), garbage, "kept for the user")
        XCTAssertTrue(agent.log.contains("moved aside to \(folder)/\(aside)"), agent.log)
        let counted = try focus("Fresh", agent)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertEqual(try recorded("fresh", in: path, from: counted), Date().timeIntervalSince(counted), accuracy: 0.5)
    }
}
