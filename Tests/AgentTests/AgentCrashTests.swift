import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
@testable import UsageStore
import XCTest

/// Issue 7's crashes, on the harness's desktop and bus: each sequence that used to trap the agent
/// (and, stored, trap every later start) leaves it running, and a restart works.
final class AgentCrashTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    /// The time-of-day modes on, bedtime pinned 3 hours from now: `bedtime` said now comes before
    /// Wind Down (an hour before bedtime), whatever the hour the test runs at.
    func environment(extra: String = "") throws -> [String: String] {
        let utc = FixedOffsetZone(seconds: 0)
        let bedtime = utc.localDateTime(of: Date().addingTimeInterval(3 * 3600)).time
        let wake = utc.localDateTime(of: Date().addingTimeInterval(11 * 3600)).time
        let clock = { (time: WallTime) in WallTime(hour: time.hour, minute: time.minute).description }
        var environment = try AgentProcess.freshEnvironment(
            on: desk, config: "[general]\nidle-after = 1h\n[modes]\nautomatic = on\nbedtime = \(clock(bedtime))\nwake-time = \(clock(wake))\n\(extra)")
        environment["TZ"] = "UTC"
        return environment
    }

    func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try BusConnection(address: desk.busAddress).call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                                         interface: AgentInterface.interface, method: method, arguments: arguments)
    }

    /// The agent answers `status`, and starts again from what it stored.
    func assertSurvivesAndRestarts(_ agent: AgentProcess, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let status = try agent.cli(["status"])
        XCTAssertEqual(status.status, 0, "\(what): \(status.err)\nlog: \(agent.log)", file: file, line: line)
        XCTAssertTrue(agent.process.isRunning, "\(what): the agent died; log: \(agent.log)", file: file, line: line)
        XCTAssertEqual(agent.stop(), 0, "\(what): log: \(agent.log)", file: file, line: line)
        let again = try AgentProcess(environment: agent.environment, desk: desk)
        XCTAssertEqual(try again.cli(["status"]).status, 0, "\(what): after a restart; log: \(again.log)", file: file, line: line)
        XCTAssertTrue(again.process.isRunning, "\(what): the restarted agent died; log: \(again.log)", file: file, line: line)
    }

    func testBedtimeThenStayUp() throws {
        let agent = try AgentProcess(environment: try environment(), desk: desk)
        for command in [["bedtime"], ["stay-up"]] {
            let result = try agent.cli(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.err)\nlog: \(agent.log)")
        }
        try assertSurvivesAndRestarts(agent, "bedtime then stay-up")
    }

    func testRandomModeCommands() throws {
        var random = SplitMix64(seed: SplitMix64.seeds(count: 1, environment: ProcessInfo.processInfo.environment)[0])
        let agent = try AgentProcess(environment: try environment(), desk: desk)
        let names = Mode.allCases.map(\.rawValue) + ["auto"]
        for index in 0..<120 {
            let arguments: [BusValue]
            let method: String
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1: (method, arguments) = (AgentInterface.Method.setMode, [.string(random.pick(names))])
            case 2: (method, arguments) = (AgentInterface.Method.bedtime, [])
            case 3: (method, arguments) = (AgentInterface.Method.stayUp, [])
            case 4: (method, arguments) = (AgentInterface.Method.startDay, [])
            case 5: (method, arguments) = (AgentInterface.Method.break, [])
            default:
                let start = Date().addingTimeInterval(random.seconds(-86_400...40 * 86_400))
                (method, arguments) = (AgentInterface.Method.bookCheatDay, [.int64(Int64(start.timeIntervalSince1970))])
            }
            do { _ = try call(method, arguments) } catch let error as BusMethodError {
                // Refusals (a Cheat Day too soon or overlapping) are fine; an agent gone is not.
                XCTAssertTrue(error.name.hasPrefix("org.screentime.Agent1.Error."), "command \(index) \(method): \(error)\nlog: \(agent.log)")
            }
        }
        print("AgentCrashTests: 120 random mode commands, seed \(random.seed)")
        try assertSurvivesAndRestarts(agent, "120 random mode commands, seed \(random.seed)")
    }

    func testRapidBreakBedtimeStartDayCalls() throws {
        let agent = try AgentProcess(environment: try environment(), desk: desk)
        let connection = try BusConnection(address: desk.busAddress)
        let methods = [AgentInterface.Method.break, AgentInterface.Method.bedtime, AgentInterface.Method.startDay]
        for index in 0..<200 {
            _ = try connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                    interface: AgentInterface.interface, method: methods[index % methods.count])
        }
        try assertSurvivesAndRestarts(agent, "200 rapid calls")
    }

    /// The wall clock stepped back 30 days under the running agent (libfaketime reading its offset
    /// from a file at every call): the day's end is then a month away, more milliseconds than
    /// poll's timeout holds.
    func testWallClockSteppedBackThirtyDays() throws {
        var environment = try environment()
        let home = URL(fileURLWithPath: environment["HOME"]!)
        let offset = home.appendingPathComponent("faketime")
        try "+0d\n".write(to: offset, atomically: true, encoding: .utf8)
        environment["LD_PRELOAD"] = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        environment["FAKETIME_TIMESTAMP_FILE"] = offset.path
        environment["FAKETIME_NO_CACHE"] = "1"
        environment["DONT_FAKE_MONOTONIC"] = "1"
        // Started through sh: run straight from Foundation's Process under libfaketime, the CLI
        // does not see its arguments (it prints its help).
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/bin/sh")
        agent.arguments = ["-c", "exec \"$0\" agent", AgentProcess.binary.path]
        agent.environment = environment
        let log = home.appendingPathComponent("agent.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        agent.standardError = try FileHandle(forWritingTo: log)
        try agent.run()
        defer { if agent.isRunning { agent.terminate(); agent.waitUntilExit() } }
        let logText = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(eventually(10) { desk.busNameHasOwner(AgentInterface.busName) }, logText())
        XCTAssertEqual(try call(AgentInterface.Method.status).count, 1, logText())

        try "-30d\n".write(to: offset, atomically: true, encoding: .utf8)
        for method in [AgentInterface.Method.status, AgentInterface.Method.bedtime, AgentInterface.Method.status] {
            XCTAssertNoThrow(try call(method), "\(method): \(logText())")
        }
        // One more turn of the loop after the last reply, with the new timeout worked out.
        XCTAssertFalse(eventually(0.5) { !agent.isRunning }, "the agent died: \(logText())")
        agent.terminate()
        agent.waitUntilExit()
        XCTAssertEqual(agent.terminationStatus, 0, logText())
    }

    func testExtremeNumbersOverDBusAreInvalidArguments() throws {
        let agent = try AgentProcess(environment: try environment(), desk: desk)
        let before = try String(contentsOf: agent.configPath, encoding: .utf8)
        let calls: [(String, [BusValue], String)] = [
            (AgentInterface.Method.setLimit, [.string("firefox"), .uint64(.max)], "argument 2"),
            (AgentInterface.Method.setLimit, [.string("firefox"), .uint64(25 * 3600)], "argument 2"),
            (AgentInterface.Method.setDefaultLimit, [.uint64(.max)], "argument 1"),
            (AgentInterface.Method.bookCheatDay, [.int64(.max)], "argument 1"),
            (AgentInterface.Method.bookCheatDay, [.int64(.min)], "argument 1"),
        ]
        for (method, arguments, named) in calls {
            XCTAssertThrowsError(try call(method, arguments), "\(method) \(arguments)") { error in
                let error = error as? BusMethodError
                XCTAssertEqual(error?.name, AgentInterface.Error.invalidArgument, "\(method) \(arguments): \(String(describing: error))")
                XCTAssertTrue(error?.message.contains(named) == true, "\(method): \(String(describing: error))")
            }
        }
        XCTAssertEqual(try String(contentsOf: agent.configPath, encoding: .utf8), before, "nothing written")
        let waiting = try call(AgentInterface.Method.setLimit, [.string("firefox"), .uint64(86_400)]).first?.stringsValue
        XCTAssertTrue(waiting?.first?.hasPrefix("firefox: 24h a day from ") == true, "a day's limit is a loosening: \(String(describing: waiting))")
        try assertSurvivesAndRestarts(agent, "extreme D-Bus numbers")
    }

    func testEighteenDigitDurationsAreRefusedNamingThem() throws {
        let agent = try AgentProcess(environment: try environment(), desk: desk)
        let huge = "999999999999999999h"
        let configSet = try agent.cli(["config", "set", "general.idle-after", huge])
        XCTAssertEqual(configSet.status, 1, configSet.err)
        XCTAssertTrue(configSet.err.contains("idle-after") && configSet.err.contains(huge), configSet.err)
        let limitSet = try agent.cli(["limit", "set", "firefox", huge])
        XCTAssertEqual(limitSet.status, 64, limitSet.err)
        XCTAssertTrue(limitSet.err.contains(huge), limitSet.err)
        XCTAssertFalse(try String(contentsOf: agent.configPath, encoding: .utf8).contains(huge), "nothing written")
        let century = try agent.cli(["report", "--from", "0001-01-01", "--to", "9999-12-31"])
        XCTAssertEqual(century.status, 64, century.err)
        XCTAssertTrue(century.err.contains("at most a year"), century.err)
        try assertSurvivesAndRestarts(agent, "18-digit durations")
    }

    /// A config written by hand with such a number: the CLI names it, the agent still starts.
    func testEighteenDigitDurationInTheFileIsNamedAndTheAgentStarts() throws {
        let environment = try environment(extra: "wind-down-before = 999999999999999999h\n")
        for command in [["limit", "list"], ["apps"]] {
            let result = try AgentProcess.run(command, environment: environment)
            XCTAssertTrue(result.err.contains("config:") && result.err.contains("wind-down-before"), "\(command): \(result.err)")
        }
        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(try eventually { agent.log.contains("wind-down-before") }, agent.log)
        XCTAssertTrue(agent.process.isRunning, agent.log)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// Mode state rows this version cannot interpret: reported, skipped, and the agent starts.
    func testUninterpretableStoredRowsAreReportedAndSkipped() throws {
        let environment = try environment()
        let first = try AgentProcess(environment: environment, desk: desk)
        first.stop()
        let store = try UsageDatabase(path: first.databasePath)
        for sql in ["INSERT OR REPLACE INTO manual_mode(id, mode, since) VALUES(1, 'partying', 0)",
                    "INSERT OR REPLACE INTO sleep_actions(kind, at) VALUES('nap', 0), ('bedtime', 1e300), ('stay-up', -1e300)",
                    "INSERT INTO cheat_days(id, start, booked_at) VALUES('far', 9.2e18, 0)",
                    "INSERT INTO break_requests(at) VALUES(1e300)"] {
            // Rows a newer version or a hand edit could leave; no public writer makes them.
            try store.cached(sql).run()
        }

        let agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertEqual(try agent.cli(["status"]).status, 0, agent.log)
        for skipped in ["unknown mode `partying`", "unknown kind `nap`", "bedtime at", "stay-up at", "Cheat Day far", "a break request"] {
            XCTAssertTrue(agent.log.contains(skipped), "\(skipped): \(agent.log)")
        }
        XCTAssertTrue(agent.process.isRunning, agent.log)
    }
}
