import Foundation
import XCTest

/// The test bundle's environment (Tests/HermeticEnvironment) holds on any machine at any hour.
final class HermeticEnvironmentTests: XCTestCase {
    func testTheSuiteRunsAtMiddayInItsOwnHomeWithoutTheSessionsBuses() throws {
        let environment = ProcessInfo.processInfo.environment
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        // Midday when the bundle loaded; a whole suite is over well before 16:00.
        XCTAssertTrue((12..<16).contains(local.tm_hour), "local hour \(local.tm_hour) in \(environment["TZ"] ?? "no TZ")")
        XCTAssertEqual(environment["LC_ALL"], "C.UTF-8")
        XCTAssertTrue(environment["HOME"]?.hasPrefix("/tmp/screentime-tests-") == true, environment["HOME"] ?? "no HOME")
        XCTAssertTrue(environment["XDG_CONFIG_HOME"]?.hasPrefix(environment["HOME"]!) == true)
        // The suite's session bus, if any, is a harness's own (under /tmp), never the user's.
        if let bus = environment["DBUS_SESSION_BUS_ADDRESS"] {
            XCTAssertTrue(bus.hasPrefix("unix:path=/tmp/screentime-"), bus)
        }
    }

    /// Every family a test's program may ask for is DejaVu, even beside Noto and Cantarell; the
    /// file is readable by every user (sway's clients run as nobody).
    func testFontconfigNamesOnlyDejaVu() throws {
        let conf = try XCTUnwrap(ProcessInfo.processInfo.environment["FONTCONFIG_FILE"])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: conf)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o004, 0o004, "\(conf) is readable by every user")
        for family in ["sans-serif", "Sans", "Cantarell", "serif", "monospace", "Noto Sans"] {
            let match = Process()
            match.executableURL = URL(fileURLWithPath: "/usr/bin/fc-match")
            match.arguments = ["-f", "%{file}", family]
            let out = Pipe()
            match.standardOutput = out
            try match.run()
            let file = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            match.waitUntilExit()
            XCTAssertTrue(file.hasPrefix("/usr/share/fonts/truetype/dejavu/DejaVu"), "\(family): \(file)")
        }
    }
}
