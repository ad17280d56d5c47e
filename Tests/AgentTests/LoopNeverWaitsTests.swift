import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The agent's loop answers its callers promptly whatever the other side of the bus does.
final class LoopNeverWaitsTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    func startAgent(config: String = "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n") throws -> AgentProcess {
        try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
    }

    /// Calls the agent and returns the reply and how long it took.
    func timedCall(_ connection: BusConnection, _ method: String, _ arguments: [BusValue] = []) throws -> ([BusValue], TimeInterval) {
        let start = Date()
        let reply = try connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                        interface: AgentInterface.interface, method: method, arguments: arguments,
                                        timeout: .seconds(10))
        return (reply, Date().timeIntervalSince(start))
    }

    func longestLoopTurn(_ agent: AgentProcess) throws -> Double {
        let status = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        return try XCTUnwrap(status.diagnostics?["longestLoopTurnMs"], "the status has no longest loop turn")
    }

    func testAHungNotificationServerDoesNotSlowModeChanges() throws {
        let agent = try startAgent()
        let caller = try BusConnection(address: desk.busAddress)
        // The notifications, and the agent's replies to the calls below.
        let replies = "type='method_return',destination='\(caller.uniqueName)'"
        let monitor = try BusMonitor(address: desk.busAddress, rules: BusMonitor.notificationRules + [replies])
        let dunst = try DunstControl(desktop: desk)
        // The agent asks the server what it can do at start (asynchronously too): stop dunst only
        // once it has answered, so the notices below are what waits for it.
        XCTAssertTrue(try eventually {
            try StatusFormat.decode(try agent.cli(["status", "--json"]).out).backends["notifications"] != nil
        }, "the agent never learned of the notification server")
        try dunst.pause()
        var resumed = false
        defer { if !resumed { try? dunst.resume() } }

        var slowest = 0.0
        let modes = ["productivity", "standard"]
        for index in 0..<20 {
            let (_, took) = try timedCall(caller, AgentInterface.Method.setMode, [.string(modes[index % 2])])
            slowest = max(slowest, took)
            XCTAssertLessThan(took, 0.1, "mode change \(index + 1) took \(took) s with dunst stopped")
        }
        print("hung notification server: slowest of 20 mode changes \(String(format: "%.1f", slowest * 1000)) ms; "
              + "longest loop turn \(try longestLoopTurn(agent)) ms")
        // One notice waits for the stopped server; the newest is held back, not queued behind it.
        // (Every Notify the agent sent went to the bus before its last reply: once the monitor has
        // the 20 replies, it has them all.)
        _ = try monitor.waitFor("the first mode notice") { $0.notifyCalls.first }
        _ = try monitor.waitFor("the agent's 20 replies") { monitor in
            monitor.messages.filter { $0.kind == .methodReturn && $0.destination == caller.uniqueName }.count >= 20 ? true : nil
        }
        XCTAssertEqual(monitor.notifyCalls.count, 1, "\(monitor.notifyCalls.map(\.summary))")

        try dunst.resume()
        resumed = true
        let last = try monitor.waitForNotify { $0.replacesID != 0 }
        XCTAssertEqual(last.icon, "screentime-standard", "the newest notice replaces the first once its id is known")
        XCTAssertTrue(agent.process.isRunning)
    }

    func testAReplyLargerThanTheSocketBufferArrivesWholeAndLaterCallsAreAnswered() throws {
        let names = (0..<8000).map { String(format: "application-with-a-rather-long-name-%05d", $0) }
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n[limits]\n"
                                   + names.map { "\($0) = 1h\n" }.joined() + "[modes]\nautomatic = off\nbreaks = off\n")
        let caller = try BusConnection(address: desk.busAddress)

        let (reply, took) = try timedCall(caller, AgentInterface.Method.listLimits)
        let json = try XCTUnwrap(reply.first?.stringValue)
        XCTAssertGreaterThan(json.utf8.count, 300_000, "the reply must be larger than the socket buffer")
        let limits = try JSONDecoder().decode([String: Double].self, from: Data(json.utf8))
        XCTAssertEqual(limits.count, names.count + 1, "every limit and the default")
        let (_, next) = try timedCall(caller, AgentInterface.Method.status)
        print("ListLimits of \(json.utf8.count) bytes answered in \(String(format: "%.1f", took * 1000)) ms; "
              + "the next call in \(String(format: "%.1f", next * 1000)) ms")
        XCTAssertLessThan(took, 1, "the reply waited for something else to wake the agent")
        XCTAssertLessThan(next, 0.1)
        print("longest loop turn \(try longestLoopTurn(agent)) ms")
    }

    /// A folder of 20 calendars, each at the reader's bounds (two series of 5,000 occurrences: 200,000
    /// in all; one series can no longer cost more since reads are bounded per event and per file).
    func testAFolderOfCalendarsAtTheirBoundsDoesNotStopTheAnswers() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-bigcal-\(UUID().uuidString)")
        let folder = home.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmm'00Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let start = formatter.string(from: Date().addingTimeInterval(-86_400))
        for file in 0..<20 {
            let events = (0..<2).map { series in
                "BEGIN:VEVENT\r\nUID:big-\(file)-\(series)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:\(start)\r\nDURATION:PT2M\r\n"
                    + "RRULE:FREQ=MINUTELY;COUNT=5000\r\nSUMMARY:Productivity: focus\r\nEND:VEVENT\r\n"
            }.joined()
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n" + events + "END:VCALENDAR\r\n")
                .write(to: folder.appendingPathComponent("big-\(file).ics"), atomically: true, encoding: .utf8)
        }
        let agent = try startAgent(config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[calendars]\npaths = \(folder.path)\n")
        let caller = try BusConnection(address: desk.busAddress)

        let began = Date()
        var slowest = 0.0, calls = 0
        let ended = try Wait.poll(timeout: 30) {
            if agent.log.contains("only 250 are used") { return true }
            let (_, took) = try timedCall(caller, AgentInterface.Method.status)
            slowest = max(slowest, took)
            calls += 1
            return false
        }
        guard ended else { return XCTFail("the expansion never ended; log:\n\(agent.log)") }
        print("200,000 occurrences in 20 calendars expanded in \(String(format: "%.1f", Date().timeIntervalSince(began))) s; "
              + "slowest of \(calls) calls meanwhile \(String(format: "%.1f", slowest * 1000)) ms")
        XCTAssertLessThan(slowest, 0.1)
        XCTAssertGreaterThan(calls, 5, "the calls overlapped the expansion")
        let status = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        XCTAssertEqual(status.mode, "productivity", "the calendar's event decides the mode: \(status.reason)")
        print("longest loop turn \(try longestLoopTurn(agent)) ms")
    }
}
