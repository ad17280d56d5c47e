import Foundation
import Harnesses
import XCTest

/// What build.sh puts beside the indicator for both builds: its compiled settings schema and the
/// modes' symbolic icons; and the GNOME 45+ build of indicator.js loads as an ES module in gjs
/// (the shell's own JavaScript engine), as service.js does (GnomeShellInstallTests).
final class GnomeShellIndicatorBuildTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-gnome-build-\(UUID().uuidString.prefix(8))")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func run(_ program: String, _ arguments: [String]) throws -> String {
        try HarnessProcesses.process(program, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
            .checkedOutput("\(program) \(arguments)", includingErrors: true)
    }

    var build: String { GnomeShellHarness.repositoryRoot.appendingPathComponent("desktop/gnome-shell/build.sh").path }

    func testBothBuildsCarryTheSchemaAndEveryModesSymbolicIcon() throws {
        for version in ["43", "46"] {
            let destination = folder.appendingPathComponent(version)
            _ = try run("/bin/sh", [build, destination.path, version])
            XCTAssertTrue(FileManager.default.fileExists(atPath: destination.appendingPathComponent("schemas/gschemas.compiled").path))
            for mode in ["standard", "productivity", "social", "wind-down", "sleep", "wake-up", "cheat-day"] {
                XCTAssertTrue(FileManager.default.fileExists(atPath: destination.appendingPathComponent("icons/screentime-\(mode)-symbolic.svg").path),
                              "\(version): \(mode)")
            }
            let keys = try run("/usr/bin/gsettings", ["--schemadir", destination.appendingPathComponent("schemas").path,
                                                      "list-keys", "org.gnome.shell.extensions.screentime"])
            XCTAssertEqual(keys.split(separator: "\n").sorted(), ["show-indicator", "show-time-left"])
        }
    }

    func testTheESModuleBuildOfTheIndicatorLoadsAsAModule() throws {
        let destination = folder.appendingPathComponent("46")
        _ = try run("/bin/sh", [build, destination.path, "46"])
        let entry = try String(contentsOf: destination.appendingPathComponent("extension.js"), encoding: .utf8)
        XCTAssertTrue(entry.contains("import {createIndicator} from './indicator.js';"), entry)
        let check = destination.appendingPathComponent("check.js")
        try "import {createIndicator} from './indicator.js';\nimport {createService} from './service.js';\nprint(typeof createIndicator, typeof createService);\n"
            .write(to: check, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run("/usr/bin/gjs", ["-m", check.path]).trimmingCharacters(in: .whitespacesAndNewlines), "function function")
    }
}
