import Agent
import AgentControl
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// Mutated config files read by the agent's real config source (issue 19): nothing traps, every
/// broken file is named with a line it has, and the last good settings stay in force. Seeded
/// (`SCREENTIME_SEEDS` replays), bounded in count and time; every input is written here.
final class ConfigFuzzTests: XCTestCase {
    static let casesPerSeed = 400

    /// A config as a user ends up with one: every section, comments, lists, groups and rules.
    static let base = Settings.template
        .replacingOccurrences(of: "scope = leisure\n", with: "scope = leisure\nfirefox = 45m\ncontent = 2h\n")
        .replacingOccurrences(of: "important =\n", with: "important = keepassxc;org.gnome.Calculator\n")
        .replacingOccurrences(of: "[groups]\n", with: "[groups]\nproductivity = org.gnome.Builder;-firefox\n")
        .replacingOccurrences(of: "[rules]\n", with: "[rules]\nvideo = firefox:Video;*:Stream\n")
        + "\n[rundown]\nfeed-timeout = 3s\n"

    /// Lines and pieces a hand, an editor or a hostile program might leave.
    static let pieces = [
        "[limits]", "[x", "[]", "[general]]", "#comment", "; note", "=", " = 1h", "firefox = ", "firefox = 1h", "firefox = -1h",
        "default = 0s", "scope = all", "scope = none", "day-start = 25:00", "important = ;;;", "content = +a;-b;+",
        "video = :", "video = a:b:c", "\u{FEFF}", "\r", "\u{0}", "\u{1B}[2J", "\u{202E}", "\u{301}", "é", "日本",
        String(repeating: "a", count: 300) + " = 1h", "idle-after = 1e308s", "countdown = 1s;2s;" + String(repeating: "3s;", count: 50),
        "[wind-down]", "[rundown]", "feeds = file:///etc/passwd", "[calendars]", "paths = /nonexistent",
    ]

    func mutate(_ text: String, _ random: inout SplitMix64) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0..<max(1, lines.count), using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !lines.isEmpty: lines.remove(at: at)
            case 1: lines.insert(Self.pieces.randomElement(using: &random)!, at: min(at, lines.count))
            case 2 where !lines.isEmpty: lines.insert(lines[at], at: at)
            case 3 where !lines.isEmpty:
                var line = Array(lines[at].unicodeScalars)
                let piece = Self.pieces.randomElement(using: &random)!.unicodeScalars
                line.insert(contentsOf: piece, at: Int.random(in: 0...line.count, using: &random))
                lines[at] = String(String.UnicodeScalarView(line))
            case 4 where !lines.isEmpty: lines[at] = String(lines[at].prefix(Int.random(in: 0...lines[at].count, using: &random)))
            case 5 where lines.count > 1: lines.swapAt(at, Int.random(in: 0..<lines.count, using: &random))
            case _ where lines.isEmpty: lines.append(Self.pieces.randomElement(using: &random)!)
            default: lines[at] = Self.pieces.randomElement(using: &random)!
            }
        }
        return lines.joined(separator: Bool.random(using: &random) ? "\n" : "\r\n")
    }

    func testMutatedConfigFilesAreNamedByLineAndTheLastGoodOneKept() throws {
        let folder = NSTemporaryDirectory() + "config-fuzz-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config"
        try Self.base.write(toFile: path, atomically: true, encoding: .utf8)
        let source = ConfigSource(path: path)
        XCTAssertNil(source.problem, "the base config is good")
        XCTAssertEqual(source.settings.limits["firefox"], 45 * 60, "and has what the mutations break")

        let started = ContinuousClock.now
        var (good, broken) = (0, 0)
        for seed in SplitMix64.seeds(count: 3, environment: ProcessInfo.processInfo.environment) {
            var random = SplitMix64(seed: seed)
            for index in 0..<Self.casesPerSeed {
                let lastGood = source.settings
                let text = mutate(Self.base, &random)
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                source.reload()
                let context = "seed \(seed) case \(index):\n\(text)"
                if let problem = source.problem {
                    broken += 1
                    XCTAssertEqual(source.settings, lastGood, "the last good settings stay: \(context)")
                    let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).count
                    let named = problem.hasPrefix(path + ":") ? Int(problem.dropFirst(path.count + 1).prefix { $0.isNumber }) : nil
                    XCTAssertTrue(named.map { (1...lineCount).contains($0) } == true, "\(problem) names a line of the file: \(context)")
                } else {
                    good += 1
                    XCTAssertEqual(source.settings, try ConfigFile.settings(at: path), context)
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertGreaterThan(broken, 100, "the mutations break files")
        XCTAssertGreaterThan(good, 10, "and keep some good")
        XCTAssertLessThan(elapsed, .seconds(30))
        print("config fuzz: \(good + broken) files (\(broken) broken, \(good) good) in \(elapsed)")
    }
}
