import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Random calls on the running agent's `org.screentime.Agent1` (issue 19): random method names,
/// signatures and argument values. Every call is answered (a reply or an error, never a timeout),
/// the agent stays alive, and the config file it writes still parses. Seeded (`SCREENTIME_SEEDS`
/// replays), bounded in count and time.
final class AgentInterfaceFuzzTests: XCTestCase {
    static let callsPerSeed = 400

    /// Strings that have hurt or might: the reproducers, separators, controls, long ones.
    static let strings = [
        "", " ", "\t", "firefox", "firefox ", "#comment", "; note", "[general]", "[x", "scope", "default", "a=b", "a;b", "a:b",
        "-firefox", "+firefox", "\u{301}x", "esc\u{1B}]0;x\u{7}", "evil\u{202E}gpj", "important", "essential", "productivity",
        "auto", "sleep", "wind-down", "continue", "close", "card-1", String(repeating: "a", count: 256), String(repeating: "é", count: 4096),
        LimitedTestApp.id, "日本語", "\u{FEFF}",
    ]

    func value(_ random: inout SplitMix64, depth: Int = 0) -> BusValue {
        switch Int.random(in: 0..<(depth < 2 ? 12 : 9), using: &random) {
        case 0, 1, 2: return .string(Self.strings.randomElement(using: &random)!)
        case 3: return .uint64([0, 1, 60, 3600, 86_400, UInt64.max, UInt64.random(in: 0...UInt64.max, using: &random)].randomElement(using: &random)!)
        case 4: return .int64([0, -1, Int64.min, Int64.max, Int64(Date().timeIntervalSince1970) + 13 * 3600].randomElement(using: &random)!)
        case 5: return .bool(Bool.random(using: &random))
        case 6: return .uint32(UInt32.random(in: 0...UInt32.max, using: &random))
        case 7: return .double([0, -1, .infinity, .nan, 1e308].randomElement(using: &random)!)
        case 8: return .objectPath("/org/screentime/Agent")
        case 9: return .strings((0..<Int.random(in: 0...3, using: &random)).map { _ in Self.strings.randomElement(using: &random)! })
        case 10: return .variant(value(&random, depth: depth + 1))
        default: return .structure([value(&random, depth: depth + 1), value(&random, depth: depth + 1)])
        }
    }

    /// A value of D-Bus type `type` (one of the agent's: s, t, x, b).
    func value(ofType type: Character, _ random: inout SplitMix64) -> BusValue {
        switch type {
        case "s": .string(Self.strings.randomElement(using: &random)!)
        case "t": .uint64([0, 1, 60, 3600, 86_400, 400 * 86_400, UInt64.max].randomElement(using: &random)!)
        case "x": .int64([0, Int64.min, Int64.max, Int64(Date().timeIntervalSince1970) + 13 * 3600].randomElement(using: &random)!)
        default: .bool(Bool.random(using: &random))
        }
    }

    func testRandomCallsAreAllAnsweredAndTheAgentStaysWhole() throws {
        let desk = try DesktopHarness.shared()
        let agent = try LimitedTestApp.startAgent(on: desk)
        let connection = try BusConnection(address: agent.environment["DBUS_SESSION_BUS_ADDRESS"])
        defer { connection.close() }
        let methods = AgentInterface.methods.map(\.name)
        let started = ContinuousClock.now
        var (answered, refused) = (0, 0)
        for seed in SplitMix64.seeds(count: 3, environment: ProcessInfo.processInfo.environment) {
            var random = SplitMix64(seed: seed)
            for index in 0..<Self.callsPerSeed {
                let method: String
                let arguments: [BusValue]
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    method = "X" + String((0..<Int.random(in: 0...12, using: &random)).map { _ in "abcSetLimit_09".randomElement(using: &random)! })
                    arguments = (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random) }
                case 1, 2, 3:
                    method = methods.randomElement(using: &random)!
                    arguments = (0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random) }
                default:
                    // The method's own signature with hostile values: what reaches the code behind it.
                    method = methods.randomElement(using: &random)!
                    arguments = AgentInterface.arguments(of: method)!.inputSignature.map { value(ofType: $0, &random) }
                }
                let context = "seed \(seed) call \(index): \(method)\(arguments)"
                do {
                    _ = try connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                            interface: AgentInterface.interface, method: method, arguments: arguments)
                    answered += 1
                } catch let error as BusMethodError {
                    refused += 1
                    XCTAssertFalse([BusMethodError.noReply, BusMethodError.timeout, BusMethodError.serviceUnknown].contains(error.name),
                                   "\(error): \(context)")
                    XCTAssertFalse(error.message.isEmpty, context)
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertGreaterThan(answered, 100)
        XCTAssertGreaterThan(refused, 300)
        XCTAssertNoThrow(try agent.status(), "the agent is alive: \(agent.log)")
        let config = try String(contentsOf: agent.configPath, encoding: .utf8)
        XCTAssertNoThrow(try Settings(KeyFile(parsing: config), path: agent.configPath.path), config)
        XCTAssertLessThan(elapsed, .seconds(90))
        print("D-Bus fuzz: \(answered + refused) calls (\(answered) answered with success, \(refused) refused) in \(elapsed)")
    }
}
