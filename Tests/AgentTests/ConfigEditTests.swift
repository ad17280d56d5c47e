import Foundation
@testable import Agent
@testable import AgentControl
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Every edit of the config is kept: concurrent editors take turns, a symlinked config stays a link.
final class ConfigEditTests: XCTestCase {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testTheFirstEditOnAFreshMachineMakesTheConfigFolder() throws {
        let path = try temporaryDirectory().appendingPathComponent(".config/screentime/config").path
        try ConfigEditor(path: path).edit { $0.setLimit("games", 1800) }
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("games = 30m"))
    }

    func testASymlinkedConfigStaysALinkAndItsTargetIsEdited() throws {
        let directory = try temporaryDirectory()
        let dotfiles = directory.appendingPathComponent("dotfiles")
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles.appendingPathComponent("screentime.conf").path
        try "# mine\n[limits]\nnotes = 1h\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let link = directory.appendingPathComponent("config").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "dotfiles/screentime.conf")

        try ConfigEditor(path: link).edit { $0.setLimit("games", 1800) }

        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "dotfiles/screentime.conf", "still a link")
        let text = try String(contentsOfFile: target, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# mine\n"), text)
        XCTAssertTrue(text.contains("games = 30m"), text)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber)?.intValue, 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dotfiles.path), ["screentime.conf"], "no temporary file left")
    }

    func testAnEditWaitsForTheLockAndGivesUpNamingIt() throws {
        let path = try temporaryDirectory().appendingPathComponent("config").path
        do {
            let held = try ConfigLock(configPath: path)
            let started = ContinuousClock.now
            XCTAssertThrowsError(try ConfigLock(configPath: path, timeout: .milliseconds(200))) { error in
                XCTAssertTrue("\(error)".contains(path + ".lock"), "\(error)")
            }
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(200), "a bounded wait, not an immediate failure")
            withExtendedLifetime(held) {}
        }
        XCTAssertNoThrow(try ConfigLock(configPath: path, timeout: .milliseconds(200)), "free once released")
    }
}

/// The same, with the real agent and CLI processes on the desktop harness.
final class ConfigEditDesktopTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws { desk = try DesktopHarness.shared() }

    func testTwentyConcurrentCLIEditsAndTwentyDBusEditsAreAllKept() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: "[limits]\nnotes = 1h\n"), desk: desk)
        let cliEdits = (0..<20).map { index -> Process in
            let process = Process()
            process.executableURL = AgentProcess.binary
            process.arguments = ["limit", "set", "cli\(index)", "\(index + 1)m"]
            process.environment = agent.environment
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for process in cliEdits { try process.run() }
        let bus = try BusConnection(address: desk.busAddress)
        defer { bus.close() }
        for index in 0..<20 {
            _ = try bus.call(destination: AgentInterface.busName, path: AgentInterface.objectPath, interface: AgentInterface.interface,
                             method: AgentInterface.Method.setLimit, arguments: [.string("bus\(index)"), .uint64(UInt64(60 * (index + 1)))])
        }
        for process in cliEdits { process.waitUntilExit() }
        XCTAssertEqual(cliEdits.map(\.terminationStatus), Array(repeating: 0, count: 20))

        let settings = try ConfigFile.settings(at: agent.configPath.path)
        for index in 0..<20 {
            XCTAssertEqual(settings.limits[AppID("cli\(index)")], TimeInterval(60 * (index + 1)), "CLI edit \(index)")
            XCTAssertEqual(settings.limits[AppID("bus\(index)")], TimeInterval(60 * (index + 1)), "D-Bus edit \(index)")
        }
        XCTAssertEqual(settings.limits[AppID("notes")], 3600, "what was there stays")
    }

    func testAChangeOfASymlinkedConfigsTargetIsReloaded() throws {
        var environment = try AgentProcess.freshEnvironment(on: desk, config: nil)
        let home = URL(fileURLWithPath: environment["HOME"]!)
        let dotfiles = home.appendingPathComponent("dotfiles")
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles.appendingPathComponent("screentime.conf")
        try "[limits]\nnotes = 1h\n[modes]\nautomatic = off\n".write(to: target, atomically: true, encoding: .utf8)
        let link = home.appendingPathComponent(".config/screentime/config").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        environment["HOME"] = home.path
        let agent = try AgentProcess(environment: environment, desk: desk)
        func configProblem() throws -> String? {
            try StatusFormat.decode(agent.cli(["status", "--json"]).out).configProblem
        }

        // Written in place, as an editor that does not rename would.
        try Data("[limits]\nnotes = 6x\n".utf8).write(to: target)
        XCTAssertTrue(eventually { (try? configProblem())??.contains(":2:") == true }, agent.log)
        try "[limits]\nnotes = 1h\n".write(to: target, atomically: true, encoding: .utf8)
        XCTAssertTrue(eventually { (try? configProblem()) == .some(nil) }, agent.log)

        XCTAssertEqual(try agent.cli(["limit", "set", "notes", "2h"]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target.path, "still a link")
        XCTAssertEqual(try ConfigFile.settings(at: target.path).limits["notes"], 7200)
    }
}
