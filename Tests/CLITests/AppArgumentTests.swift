import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// APP arguments: an abbreviation of an installed app's id, when it fits one app only; the
/// built-in essential apps in `essential list`.
final class AppArgumentTests: XCTestCase {
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-app-\(UUID().uuidString)")
        let applications = home.appendingPathComponent("share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        for id in ["org.gnome.Calculator", "org.example.Notes", "org.other.Notes"] {
            try "[Desktop Entry]\nType=Application\nName=\(id)\nExec=x\n"
                .write(to: applications.appendingPathComponent(id + ".desktop"), atomically: true, encoding: .utf8)
        }
        environment = ["HOME": home.path, "TZ": Self.middayZone, "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": home.path + "/share",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try AgentProcess.run(arguments, environment: environment)
    }

    func testAnUnambiguousAbbreviationNamesTheInstalledApp() throws {
        let added = try run(["essential", "add", "calculator"])
        XCTAssertEqual(added.status, 0, added.err)
        // Loosenings both, so they wait for the day start (CommitmentBook); the name is what matters here.
        XCTAssertTrue(added.out.hasPrefix("org.gnome.Calculator: essential (never restricted) from "), added.out)
        let limited = try run(["limit", "set", "calculator", "2h"])
        XCTAssertTrue(limited.out.hasPrefix("org.gnome.Calculator: 2h a day from "), limited.out)
        XCTAssertEqual(try run(["limit", "set", "something-else", "1h"]).out, "something-else: 1h a day\n")
    }

    func testAnAmbiguousAbbreviationIsAUsageErrorListingTheCandidates() throws {
        let result = try run(["group", "add", "productivity", "notes"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.contains("`notes` could be any of org.example.Notes, org.other.Notes"), result.err)
        XCTAssertFalse(try run(["group", "list"]).out.contains("Notes"), "nothing written")
    }

    func testEssentialListMarksTheBuiltInApps() throws {
        XCTAssertEqual(try run(["essential", "add", "calculator"]).status, 0)
        let list = try run(["essential", "list"]).out.split(separator: "\n").map(String.init)
        // Marking an app essential is a loosening: listed as waiting, after what holds.
        XCTAssertEqual(list.first, "screentime  (built in: this agent)")
        XCTAssertTrue(list.last?.hasPrefix("pending: org.gnome.Calculator: essential (never restricted) from ") == true, "\(list)")
        for line in ["screentime  (built in: this agent)", "pinentry*  (built in: password prompt)",
                     "gcr-prompter  (built in: password prompt)", "polkit-*  (built in: password prompt)",
                     "gnome-keyring*  (built in: keyring)", "gnome-control-center  (built in: desktop settings)",
                     "xscreensaver*  (built in: screen locker)", "gnome-shell  (built in: desktop shell)"] {
            XCTAssertTrue(list.contains(line), line)
        }
    }

    /// Issue 19: an APP the config file cannot keep as typed is a usage error naming it, and
    /// nothing is written, on every command that stores one.
    func testAnAppTheConfigFileCannotKeepIsAUsageErrorNamingIt() throws {
        let config = URL(fileURLWithPath: environment["HOME"]! + "/.config/screentime/config")
        let cases: [([String], String)] = [
            (["limit", "set", "#comment", "1h"], "#comment"), (["limit", "set", "firefox ", "1h"], "firefox "),
            (["limit", "set", "default", "1h"], "default"), (["limit", "rm", "[general]"], "[general]"),
            (["important", "add", " "], " "), (["essential", "add", "\t"], "\t"), (["group", "add", "content", "-steam"], "-steam"),
            (["rule", "add", "v=x", "--app", "firefox", "--title", "Video"], "v=x"),
            (["rule", "add", "video", "--app", "fire:fox", "--title", "Video"], "fire:fox"),
        ]
        for (arguments, typed) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.out)")
            XCTAssertTrue(result.err.contains("\(StoredName.shown(typed)) cannot be stored: "), "\(arguments): \(result.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: config.path), "\(arguments): nothing written")
        }
    }
}
