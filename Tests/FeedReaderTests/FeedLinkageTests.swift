import Foundation
import TestSupport
import XCTest

/// Feeds are fetched by the short-lived processes only: the agent links neither libcurl nor libxml2.
final class FeedLinkageTests: XCTestCase {
    func libraries(of binary: URL) throws -> String {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary.path]
        let out = Pipe()
        ldd.standardOutput = out
        try ldd.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        XCTAssertEqual(ldd.terminationStatus, 0, "ldd \(binary.path)")
        return text
    }

    func testTheAgentLinksNoFeedLibrariesTheCLIDoes() throws {
        let cli = AgentProcess.binary
        let agent = cli.deletingLastPathComponent().appendingPathComponent("screentime-agent")
        let agentLibraries = try libraries(of: agent)
        XCTAssertFalse(agentLibraries.contains("libcurl"), agentLibraries)
        XCTAssertFalse(agentLibraries.contains("libxml2"), agentLibraries)
        let cliLibraries = try libraries(of: cli)
        XCTAssertTrue(cliLibraries.contains("libcurl") && cliLibraries.contains("libxml2"), cliLibraries)
    }
}
