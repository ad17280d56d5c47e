import Foundation
import TestSupport
import XCTest

/// The agent's code run only to start is not kept resident: once running, the executable's code
/// mapping holds only what the loop has run since (StartupCode).
final class StartupCodeTests: XCTestCase {
    func testTheCodeRunOnlyToStartIsNotResidentOnceRunning() throws {
        let desk = try DesktopHarness.shared()
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n"),
                                     desk: desk)
        let pid = agent.process.processIdentifier
        XCTAssertTrue(eventually { agent.log.contains("running;") }, agent.log)
        usleep(300_000)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        let code = try Self.codeMapping(of: pid, path: executable)
        XCTAssertGreaterThan(code.size, 1 << 20, "the agent's code mapping")
        // Started, the agent had touched (and the kernel mapped around) most of its code.
        XCTAssertLessThan(Double(code.resident), Double(code.size) * 0.35,
                          "\(code.resident / 1024) KB of \(code.size / 1024) KB of code resident")
    }

    /// The size and resident bytes of `path`'s executable mapping in /proc/PID/smaps.
    static func codeMapping(of pid: Int32, path: String) throws -> (size: Int, resident: Int) {
        let smaps = try String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8)
        var inCode = false
        var result = (size: 0, resident: 0)
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                inCode = fields.count >= 6 && fields[1] == "r-xp" && fields[5] == path
            } else if inCode, fields.count >= 2, let kilobytes = Int(fields[1]) {
                if fields[0] == "Size:" { result.size += kilobytes * 1024 }
                if fields[0] == "Rss:" { result.resident += kilobytes * 1024 }
            }
        }
        return result
    }
}
