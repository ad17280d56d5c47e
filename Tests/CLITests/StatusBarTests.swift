import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// `status --waybar`, `--i3blocks` and `--follow` from the built binary beside a running agent on
/// the harness's desktop.
final class StatusBarTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    /// Closes the test's windows (XCTest keeps every test case alive to the end of the run): a
    /// focused window left behind would be counted by the next test's agent.
    override func tearDown() {
        windows = nil
        super.tearDown()
    }

    /// What changes from run to run (clock times, seconds counted) made fixed for the golden files.
    func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]{2}:[0-9]{2}"#, with: "HH:MM", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9]+ s\b"#, with: "N s", options: .regularExpression)
    }

    func testWaybarAndI3blocksShowTheFocusedAppsLimit() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        _ = try LimitedTestApp.focus(agent, windows: windows)
        XCTAssertTrue(eventually { agent.isCounting(.init(LimitedTestApp.id)) })

        let waybar = try agent.cli(["status", "--waybar"])
        XCTAssertEqual(waybar.status, 0, waybar.err)
        try assertGolden("status-waybar.json", normalised(waybar.out))
        XCTAssertEqual(waybar.out.filter { $0 == "\n" }.count, 1, "one line")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(waybar.out.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["text", "tooltip", "class", "percentage", "alt"])
        XCTAssertTrue(object["text"] is String && object["tooltip"] is String && object["alt"] is String)
        XCTAssertEqual(object["class"] as? [String], ["standard"])
        XCTAssertEqual(object["alt"] as? String, "screentime-standard")
        XCTAssertEqual(object["percentage"] as? Int, 0, "seconds of the app's hour")
        XCTAssertNotNil(waybar.out.range(of: #""percentage":[0-9]+[,}]"#, options: .regularExpression), "an unsigned integer")

        let i3blocks = try agent.cli(["status", "--i3blocks"])
        XCTAssertEqual(i3blocks.status, 0, i3blocks.err)
        try assertGolden("status-i3blocks.txt", normalised(i3blocks.out))

        XCTAssertEqual(try agent.cli(["status", "--waybar", "--json"]).status, 64)
    }

    func testWithoutAnAgentABarFormatExits69() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: nil)
        let result = try AgentProcess.run(["status", "--waybar"], environment: environment)
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.out, "")
    }

    func testFollowPrintsALineOnEachModeChangeAtOnce() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let follower = try FollowedOutput(["status", "--waybar", "--follow"], environment: agent.environment)
        let first = try XCTUnwrap(follower.nextLine(within: 5), "the status at once")
        XCTAssertTrue(first.contains(#""class":["standard""#), first)

        let asked = Date()
        let mode = try agent.cli(["mode", "productivity"])
        let answered = Date()
        XCTAssertEqual(mode.status, 0, mode.err)
        var line: String?
        repeat { line = follower.nextLine(within: 2) } while line.map({ !$0.contains(#""class":["productivity""#) }) == true
        let printed = Date()
        let fromAnswer = printed.timeIntervalSince(answered) * 1000
        print("status --follow: a line \(Int(fromAnswer.rounded())) ms after `screentime mode productivity` returned "
              + "(\(Int((printed.timeIntervalSince(asked) * 1000).rounded())) ms after it was started)")
        XCTAssertNotNil(line, "a line for Productivity")
        XCTAssertLessThan(fromAnswer, 1000)

        // The same through the bus, without a command's start-up in the figure.
        let called = Date()
        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("social")]), [])
        repeat { line = follower.nextLine(within: 2) } while line.map({ !$0.contains(#""class":["social""#) }) == true
        let fromCall = Date().timeIntervalSince(called) * 1000
        print("status --follow: a line \(Int(fromCall.rounded())) ms after SetMode(social) was called on the bus")
        XCTAssertNotNil(line, "a line for Social")
        XCTAssertLessThan(fromCall, 1000)
        XCTAssertTrue(follower.isRunning)
    }

    func testFollowWaitsForTheAgentAndSaysWhenItIsGone() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let follower = try FollowedOutput(["status", "--i3blocks", "--follow"], environment: environment)
        XCTAssertEqual(follower.nextLine(within: 5), "Screen Time off")
        let before = try follower.wakeUps()
        usleep(1_000_000)
        XCTAssertLessThanOrEqual(try follower.wakeUps() - before, 1, "asleep in poll on the bus: no timer wakes it")

        let agent = try AgentProcess(environment: environment, desk: desk)
        var line = follower.nextLine(within: 5)
        while line == "Screen Time off" { line = follower.nextLine(within: 5) }
        XCTAssertEqual(line.map { $0.hasPrefix("Standard") }, true, String(describing: line))

        agent.stop()
        repeat { line = follower.nextLine(within: 5) } while line != nil && line != "Screen Time off"
        XCTAssertEqual(line, "Screen Time off")
        XCTAssertTrue(follower.isRunning, "still waiting for the agent to come back")
    }

    /// An agent that leaves while a bar's Status call waits for it (the bus answers NoReply for it):
    /// the bar says Screen Time is off and waits for the next one, as when no agent ran.
    func testFollowOutlivesAnAgentThatLeavesWithoutAnswering() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let leaving = try BusConnection(address: desk.busAddress)
        XCTAssertTrue(try leaving.requestName(AgentInterface.busName))
        try leaving.dispatchPending()
        let follower = try FollowedOutput(["status", "--i3blocks", "--follow"], environment: environment)
        // The follower's Status call has arrived (unread): leave without answering it.
        var entry = pollfd(fd: leaving.fileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&entry, 1, 5000), 1, "the follower's call arrived")
        leaving.close()
        XCTAssertEqual(follower.nextLine(within: 5), "Screen Time off")
        usleep(200_000)
        XCTAssertTrue(follower.isRunning, "still waiting for an agent")

        let agent = try AgentProcess(environment: environment, desk: desk)
        var line = follower.nextLine(within: 5)
        while line == "Screen Time off" { line = follower.nextLine(within: 5) }
        XCTAssertEqual(line.map { $0.hasPrefix("Standard") }, true, String(describing: line))
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    func testFollowedPlainAndJSONPrintOneLinePerChange() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let plain = try FollowedOutput(["status", "--follow"], environment: agent.environment)
        let json = try FollowedOutput(["status", "--json", "--follow"], environment: agent.environment)
        XCTAssertEqual(plain.nextLine(within: 5).map { $0.hasPrefix("Standard") }, true)
        let document = try XCTUnwrap(json.nextLine(within: 5))
        XCTAssertEqual(try StatusFormat.decode(document).mode, "standard", "the whole `status --json` document, on one line")

        XCTAssertEqual(try agent.cli(["mode", "wind-down"]).status, 0)
        var line: String?
        repeat { line = plain.nextLine(within: 2) } while line.map({ !$0.hasPrefix("Wind Down") }) == true
        XCTAssertNotNil(line, "a line for Wind Down")
        var mode: String?
        repeat { mode = json.nextLine(within: 2).flatMap { try? StatusFormat.decode($0).mode } } while mode.map({ $0 != "wind-down" }) == true
        XCTAssertEqual(mode, "wind-down")

        agent.stop()
        repeat { line = json.nextLine(within: 5) } while line != nil && line != #"{"running":false}"#
        XCTAssertEqual(line, #"{"running":false}"#, "while no agent runs")
    }
}

/// A process whose standard output is read line by line, each wait bounded.
final class FollowedOutput {
    let process = Process()
    private let pipe = Pipe()
    private var buffer = Data()

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = AgentProcess.binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// How often the process has gone to sleep and been woken (its voluntary context switches).
    func wakeUps() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return Int(line?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
    }

    /// The next line (without its newline), or nil when none came within `seconds`.
    func nextLine(within seconds: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                return line
            }
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return nil }
            var entry = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, left) > 0 else { return nil }
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }
}
