import Foundation
import Harnesses
import XCTest

/// `desktop/gnome-shell/install.sh` and `build.sh`: the build for the shell's version, enabled in
/// the setting GNOME Shell reads at login. GSettings' keyfile backend and a bus without a shell
/// stand in for a session whose shell has not loaded the extension yet (Wayland before the next login).
final class GnomeShellInstallTests: XCTestCase {
    var folder: URL!
    var environment: [String: String] = [:]
    var bus: PrivateBus!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-gnome-install-\(UUID().uuidString.prefix(8))")
        bus = try PrivateBus(directory: folder.appendingPathComponent("bus"))
        environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                       "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "GSETTINGS_BACKEND": "keyfile",
                       "DBUS_SESSION_BUS_ADDRESS": bus.address]
    }

    override func tearDown() {
        bus?.kill()
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    var extensionFolder: URL {
        folder.appendingPathComponent("data/gnome-shell/extensions/\(GnomeShellHarness.extensionUUID)")
    }

    func run(_ program: String, _ arguments: [String]) throws -> String {
        try HarnessProcesses.process(program, arguments, environment: environment).checkedOutput("\(program) \(arguments)")
    }

    func enabledExtensions() throws -> String {
        try run("/usr/bin/gsettings", ["get", "org.gnome.shell", "enabled-extensions"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var script: String { GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/gnome-shell/install.sh").path }

    func testInstallsTheInstalledShellsBuildAndEnablesItBesideTheUsersOthers() throws {
        _ = try run("/usr/bin/gsettings", ["set", "org.gnome.shell", "enabled-extensions", "['other@example.org']"])
        let said = try run("/bin/sh", [script])
        XCTAssertTrue(said.contains("log out and in once"), said)
        let metadata = try String(contentsOf: extensionFolder.appendingPathComponent("metadata.json"), encoding: .utf8)
        XCTAssertTrue(metadata.contains("\"\(GnomeShellHarness.extensionUUID)\""))
        let entry = try String(contentsOf: extensionFolder.appendingPathComponent("extension.js"), encoding: .utf8)
        XCTAssertTrue(entry.contains("imports.misc.extensionUtils"), "GNOME Shell 43 here: the imports build")
        XCTAssertEqual(try enabledExtensions(), "['other@example.org', '\(GnomeShellHarness.extensionUUID)']")

        _ = try run("/bin/sh", [script])
        XCTAssertEqual(try enabledExtensions(), "['other@example.org', '\(GnomeShellHarness.extensionUUID)']", "a second install adds nothing")
    }

    /// The 45+ build loads as an ES module (gjs, the shell's own JavaScript engine).
    func testTheESModuleBuildLoadsAsAModule() throws {
        let build = GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/gnome-shell/build.sh").path
        _ = try run("/bin/sh", [build, extensionFolder.path, "46"])
        let entry = try String(contentsOf: extensionFolder.appendingPathComponent("extension.js"), encoding: .utf8)
        XCTAssertTrue(entry.contains("export default class"), entry)
        let check = extensionFolder.appendingPathComponent("check.js")
        try "import {createService} from './service.js';\nprint(typeof createService);\n".write(to: check, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run("/usr/bin/gjs", ["-m", check.path]).trimmingCharacters(in: .whitespacesAndNewlines), "function")
    }
}
