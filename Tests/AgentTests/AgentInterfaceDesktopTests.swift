import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Every method of `org.screentime.Agent1` (docs/DBUS.md) called on the running agent over the
/// harness's bus, each judged by its effect: what `Status` and the listing methods say afterwards,
/// the config file, the window on screen. (`Bedtime`, `StayUp`, `StartDay` and `Break` are judged
/// by the mode they leave in CLIAgainstAgentModeTests: the commands are those calls.)
final class AgentInterfaceDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    let app = LimitedTestApp.id

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    func appStatus(_ agent: AgentProcess) throws -> StatusSnapshot.App? {
        try agent.status().apps.first { $0.id == AppID(self.app) }
    }

    func limits(_ agent: AgentProcess) throws -> [String: Double] {
        let json = try XCTUnwrap(agent.call(AgentInterface.Method.listLimits).first?.stringValue)
        return try JSONDecoder().decode([String: Double].self, from: Data(json.utf8))
    }

    func exemptions(_ agent: AgentProcess, _ kind: String) throws -> [String] {
        try XCTUnwrap(agent.call(AgentInterface.Method.listExemptions, [.string(kind)]).first?.stringArrayValue)
    }

    func assertFails(_ agent: AgentProcess, _ method: String, _ arguments: [BusValue], with name: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try agent.call(method, arguments), "\(method) \(arguments)", file: file, line: line) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, name, "\(method): \(error)", file: file, line: line)
        }
    }

    func testStatusIsTheDocumentStatusJSONPrints() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        _ = try LimitedTestApp.focus(agent, windows: windows)
        let json = try XCTUnwrap(agent.call(AgentInterface.Method.status).first?.stringValue)
        let overBus = try StatusFormat.decode(json)
        XCTAssertEqual(overBus.mode, "standard")
        XCTAssertEqual(overBus.focused, AppID(app))
        XCTAssertEqual(overBus.apps.first { $0.id == AppID(app) }?.name, LimitedTestApp.name)
        XCTAssertEqual(try agent.status().focused, overBus.focused)
    }

    func testLimitMethodsChangeTheLimitTheAgentApplies() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        _ = try LimitedTestApp.focus(agent, windows: windows)
        XCTAssertEqual(try appStatus(agent)?.limitSeconds, 3600, "a game has the default hour")

        XCTAssertEqual(try agent.call(AgentInterface.Method.setLimit, [.string(app), .uint64(2700)]), [.strings([])], "a tightening holds at once")
        XCTAssertEqual(try limits(agent)[app], 2700)
        XCTAssertEqual(try appStatus(agent)?.limitSeconds, 2700)
        XCTAssertTrue(try String(contentsOf: agent.configPath, encoding: .utf8).contains("\(app) = 45m"))

        XCTAssertEqual(try agent.call(AgentInterface.Method.setDefaultLimit, [.uint64(1800)]), [.strings([])])
        XCTAssertEqual(try limits(agent)["default"], 1800)
        XCTAssertEqual(try appStatus(agent)?.limitSeconds, 2700, "the app's own limit wins over the default")

        XCTAssertEqual(try agent.call(AgentInterface.Method.removeLimit, [.string(app)]), [.strings([])], "back to a shorter default: a tightening")
        XCTAssertNil(try limits(agent)[app])
        XCTAssertEqual(try appStatus(agent)?.limitSeconds, 1800, "the default applies again")

        assertFails(agent, AgentInterface.Method.setLimit, [.string(""), .uint64(60)], with: AgentInterface.Error.invalidArgument)
    }

    func testALoosenedLimitOverTheBusSaysWhenItApplies() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        _ = try LimitedTestApp.focus(agent, windows: windows)
        let reply = try agent.call(AgentInterface.Method.setLimit, [.string(app), .uint64(7200)])
        let waiting = try XCTUnwrap(reply.first?.stringsValue, "\(reply)")
        XCTAssertEqual(waiting.count, 1, "\(waiting)")
        XCTAssertTrue(waiting.first?.hasPrefix("\(app): 2h a day from ") == true, "\(waiting)")
        XCTAssertTrue(waiting.first?.hasSuffix("it stays 1h") == true, "\(waiting)")
        XCTAssertNil(try limits(agent)[app], "what holds now: the default")
        XCTAssertEqual(try appStatus(agent)?.limitSeconds, 3600)
    }

    func testExemptionMethodsLiftAndRestoreTheLimit() throws {
        // Loosening at once: the methods are what this tests (CommitmentAgentTests has the waiting).
        let agent = try LimitedTestApp.startAgent(on: desk, config: "[general]\nidle-after = 1h\n[commitment]\nloosen = now\n")
        _ = try LimitedTestApp.focus(agent, windows: windows)
        for (kind, state) in [("important", "important"), ("essential", "essential")] {
            XCTAssertEqual(try agent.call(AgentInterface.Method.setExemption, [.string(kind), .string(app), .bool(true)]), [.strings([])], "loosen = now")
            XCTAssertTrue(try exemptions(agent, kind).contains(app), kind)
            XCTAssertEqual(try appStatus(agent)?.state, state)
            XCTAssertNil(try appStatus(agent)?.limitSeconds, "\(kind): no limit")

            XCTAssertEqual(try agent.call(AgentInterface.Method.setExemption, [.string(kind), .string(app), .bool(false)]), [.strings([])])
            XCTAssertFalse(try exemptions(agent, kind).contains(app), kind)
            XCTAssertEqual(try appStatus(agent)?.limitSeconds, 3600, "\(kind) removed: the limit is back")
        }
        assertFails(agent, AgentInterface.Method.listExemptions, [.string("favourite")], with: AgentInterface.Error.invalidArgument)
    }

    func testContinueGivesADisabledAppItsWindowBack() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let window = try LimitedTestApp.focus(agent, windows: windows)
        assertFails(agent, AgentInterface.Method.continue, [.string(app)], with: AgentInterface.Error.unknownApp)

        XCTAssertEqual(try agent.call(AgentInterface.Method.setLimit, [.string(app), .uint64(1)]), [.strings([])])
        XCTAssertTrue(eventually(5) { self.windows.wmState(window) == 3 }, "minimized at its limit: \(agent.log)")
        XCTAssertEqual(try appStatus(agent)?.state, "disabled")

        XCTAssertEqual(try agent.call(AgentInterface.Method.continue, [.string(app)]), [.double(3600)], "the seconds granted")
        XCTAssertTrue(eventually { (try? self.appStatus(agent)?.continues) == 1 }, "the continue is counted")
        XCTAssertNotEqual(try appStatus(agent)?.state, "disabled")
        windows.activate(window)
        XCTAssertTrue(eventually { self.windows.wmState(window) == 1 })
        usleep(1_500_000)
        XCTAssertEqual(windows.wmState(window), 1, "the app may stay past its 1 s limit")
    }

    func testSetModeSwitchesSignalsAndAutoReturnsToTheSchedule() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let monitor = try BusMonitor(address: desk.busAddress, rules: [
            "type='signal',interface='\(AgentInterface.interface)',member='\(AgentInterface.Signal.statusChanged)'"])
        // As a follower does once subscribed: the read asks for the next signal.
        XCTAssertEqual(try agent.status().mode, "standard")
        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("social")]), [])
        _ = try monitor.waitFor("StatusChanged after SetMode") { monitor in
            monitor.messages.first { $0.member == AgentInterface.Signal.statusChanged && $0.path == AgentInterface.objectPath }
        }
        let social = try agent.status()
        XCTAssertEqual(social.mode, "social")
        XCTAssertTrue(social.reason.hasPrefix("you switched at "), social.reason)

        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("auto")]), [])
        XCTAssertEqual(try agent.status().mode, "standard")
        assertFails(agent, AgentInterface.Method.setMode, [.string("party")], with: AgentInterface.Error.invalidArgument)
        XCTAssertEqual(try agent.status().mode, "standard", "a refused switch changes nothing")
    }

    /// After a StatusChanged the next waits until someone reads the status: an agent nobody
    /// follows sends nothing at each focus switch, and a follower (which reads at each signal)
    /// misses no change.
    func testStatusChangedWaitsForTheStatusToBeRead() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let monitor = try BusMonitor(address: desk.busAddress, rules: [
            "type='signal',interface='\(AgentInterface.interface)',member='\(AgentInterface.Signal.statusChanged)'"])
        func signals() -> Int { monitor.messages.filter { $0.member == AgentInterface.Signal.statusChanged }.count }
        XCTAssertEqual(try agent.status().mode, "standard")
        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("social")]), [])
        _ = try monitor.waitFor("StatusChanged after the first SetMode") { _ in signals() == 1 ? true : nil }
        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("productivity")]), [])
        usleep(500_000)
        try monitor.drain()
        XCTAssertEqual(signals(), 1, "nobody read the status since the signal: no other")
        XCTAssertEqual(try agent.status().mode, "productivity", "the read finds the change all the same")
        XCTAssertEqual(try agent.call(AgentInterface.Method.setMode, [.string("auto")]), [])
        _ = try monitor.waitFor("StatusChanged after the read") { _ in signals() == 2 ? true : nil }
    }

    func testCheatDayMethodsBookListAndCancel() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let start = Int64(Date().addingTimeInterval(13 * 3600).timeIntervalSince1970)
        let id = try XCTUnwrap(agent.call(AgentInterface.Method.bookCheatDay, [.int64(start)]).first?.stringValue)
        XCTAssertFalse(id.isEmpty)

        func listed() throws -> [[String: Any]] {
            let json = try XCTUnwrap(agent.call(AgentInterface.Method.listCheatDays).first?.stringValue)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        }
        let booking = try XCTUnwrap(listed().first)
        XCTAssertEqual(booking["id"] as? String, id)
        XCTAssertEqual(booking["start"] as? Double, Double(start))
        XCTAssertEqual(booking["end"] as? Double, Double(start + 86_400))
        XCTAssertEqual(try agent.status().mode, "standard", "booked, not begun")

        assertFails(agent, AgentInterface.Method.bookCheatDay, [.int64(Int64(Date().addingTimeInterval(3600).timeIntervalSince1970))],
                    with: AgentInterface.Error.notAllowed)
        XCTAssertEqual(try listed().count, 1, "a refused booking adds nothing")

        XCTAssertEqual(try agent.call(AgentInterface.Method.cancelCheatDay, [.string(id)]), [])
        XCTAssertEqual(try listed().count, 0)
        assertFails(agent, AgentInterface.Method.cancelCheatDay, [.string(id)], with: AgentInterface.Error.notFound)
    }

    /// Issue 19: calls that answered success but stored nothing or something else (a comment
    /// line, the default limit, a trimmed id) are refused, naming the argument, and the config
    /// file is left as it was.
    func testAnIdTheConfigFileCannotKeepIsRefusedNamingTheArgument() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let before = try String(contentsOf: agent.configPath, encoding: .utf8)
        func refused(_ method: String, _ arguments: [BusValue], _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try agent.call(method, arguments), "\(method) \(arguments)", file: file, line: line) { error in
                let error = error as? BusMethodError
                XCTAssertEqual(error?.name, AgentInterface.Error.invalidArgument, file: file, line: line)
                XCTAssertTrue(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")", file: file, line: line)
            }
        }
        for id in ["#comment", "default", "scope", "[general]", "[x", "firefox ", " ", "\t", "a;b", "a=b"] {
            refused(AgentInterface.Method.setLimit, [.string(id), .uint64(60)], "argument 1 (the app id): \(StoredName.shown(id)) cannot be stored: ")
            refused(AgentInterface.Method.removeLimit, [.string(id)], "argument 1 (the app id): ")
            for kind in ["important", "essential"] {
                refused(AgentInterface.Method.setExemption, [.string(kind), .string(id), .bool(true)], "argument 2 (the app id): ")
            }
        }
        XCTAssertEqual(try limits(agent)["default"], 3600, "SetLimit(\"default\") did not change the default limit")
        XCTAssertEqual(try String(contentsOf: agent.configPath, encoding: .utf8), before, "nothing written")

        // A megabyte of app id is refused by its length, without holding the loop.
        let long = String(repeating: "a", count: 1 << 20)
        let started = ContinuousClock.now
        refused(AgentInterface.Method.setLimit, [.string(long), .uint64(60)], "argument 1 (the app id): `aaaa")
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(150))
    }

    /// Issue 19: `SetDefaultLimit t60 s'firefox'` was accepted, the extra argument ignored. A call
    /// whose signature is not the method's is refused with InvalidArgs, saying both.
    func testACallWithTheWrongSignatureIsRefused() throws {
        let agent = try LimitedTestApp.startAgent(on: desk)
        let before = try String(contentsOf: agent.configPath, encoding: .utf8)
        let wrong: [(String, [BusValue], String)] = [
            (AgentInterface.Method.setDefaultLimit, [.uint64(60), .string("firefox")], "SetDefaultLimit takes (t), not (ts)"),
            (AgentInterface.Method.setLimit, [.string(app), .uint32(60)], "SetLimit takes (st), not (su)"),
            (AgentInterface.Method.setLimit, [.variant(.string(app)), .uint64(60)], "SetLimit takes (st), not (vt)"),
            (AgentInterface.Method.setExemption, [.string("important"), .string(app)], "SetExemption takes (ssb), not (ss)"),
            (AgentInterface.Method.status, [.string("x")], "Status takes (), not (s)"),
            (AgentInterface.Method.bedtime, [.bool(true)], "Bedtime takes (), not (b)"),
        ]
        for (method, arguments, message) in wrong {
            XCTAssertThrowsError(try agent.call(method, arguments)) { error in
                XCTAssertEqual(error as? BusMethodError, BusMethodError(name: BusMethodError.invalidArgs, message: message))
            }
        }
        XCTAssertThrowsError(try agent.call("SetLimits", [.string(app), .uint64(60)])) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, BusMethodError.unknownMethod)
        }
        XCTAssertEqual(try limits(agent)["default"], 3600)
        XCTAssertEqual(try String(contentsOf: agent.configPath, encoding: .utf8), before, "nothing written")
    }
}
