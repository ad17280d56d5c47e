import Foundation
import ScreenTimeCore
import Harnesses
import Synchronization
import XCTest

/// The Debian package, built once per run by `scripts/build-deb.sh` from the binaries of this test
/// run (`.build/debug`: a release build would take most of the suite's time), listed, installed
/// into this machine with `dpkg -i` (the tests run as root), used as a user would, and removed.
final class PackageTests: XCTestCase {
    static let repository = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The built .deb, or why it could not be built; nil until a test first needs it.
    static let package = Mutex<Result<String, PackagingFailure>?>(nil)

    struct PackagingFailure: Error, CustomStringConvertible { var description: String }

    /// Runs a program to its end: (status, stdout, stderr).
    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                    in directory: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        return try process.finishedOutput()
    }

    func deb() throws -> String {
        try Self.package.withLock { package in
            if package == nil {
                let output = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-deb-\(UUID().uuidString)")
                let built = try Self.run("/bin/sh", ["scripts/build-deb.sh", "--prebuilt", AgentProcess.binary.deletingLastPathComponent().path,
                                                     "--output", output.path], in: Self.repository)
                package = built.status == 0
                    ? .success(built.out.trimmingCharacters(in: .whitespacesAndNewlines))
                    : .failure(PackagingFailure(description: "build-deb.sh exited \(built.status): \(built.err)"))
            }
            return try package!.get()
        }
    }

    var version: String {
        get throws {
            let printed = try AgentProcess.run(["--version"], environment: [:])
            return String(printed.out.dropFirst("screentime ".count).dropLast())
        }
    }

    func testThePackageHoldsEveryFileAtItsPlace() throws {
        let deb = try deb()
        let version = try version
        XCTAssertTrue(deb.hasSuffix("/screentime_\(version)_\(try Self.run("/usr/bin/dpkg", ["--print-architecture"]).out.dropLast()).deb"), deb)
        XCTAssertEqual(try Self.run("/usr/bin/dpkg-deb", ["-f", deb, "Version"]).out, "\(version)\n")
        let depends = try Self.run("/usr/bin/dpkg-deb", ["-f", deb, "Depends"]).out
        for library in ["libgtk-3-0", "libgtk-layer-shell0", "libdbus-1-3", "libsqlite3-0", "libical3", "libcurl4", "libxml2",
                        "libwayland-client0", "libx11-6", "libxrandr2", "libxss1", "libxext6"] {
            XCTAssertTrue(depends.contains(library), "Depends: \(depends)")
        }
        let listing = try Self.run("/usr/bin/dpkg-deb", ["-c", deb])
        XCTAssertEqual(listing.status, 0, listing.err)
        let files = Set(listing.out.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map { String($0.dropFirst()) }
        })
        for file in ["/usr/bin/screentime", "/usr/bin/screentime-reader", "/usr/bin/screentime-agent", "/usr/bin/screentime-card",
                     "/usr/share/icons/hicolor/scalable/apps/screentime.svg",
                     "/usr/share/icons/hicolor/scalable/apps/screentime-productivity.svg",
                     "/etc/xdg/autostart/screentime.desktop", "/usr/lib/systemd/user/screentime.service",
                     "/usr/share/applications/screentime-agent.desktop", "/usr/share/man/man1/screentime.1.gz",
                     "/usr/share/bash-completion/completions/screentime", "/usr/share/zsh/vendor-completions/_screentime",
                     "/usr/share/fish/vendor_completions.d/screentime.fish",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/metadata.json",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/extension.js",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/service.js",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/indicator.js",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/schemas/gschemas.compiled",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/icons/screentime-sleep-symbolic.svg",
                     "/usr/share/gnome-shell/extensions/screentime@screentime.org/locale/de/LC_MESSAGES/screentime.mo",
                     "/usr/share/plasma/plasmoids/org.screentime.status/metadata.json",
                     "/usr/share/plasma/plasmoids/org.screentime.status/contents/ui/main.qml",
                     "/usr/share/plasma/plasmoids/org.screentime.status/contents/icons/screentime-sleep-symbolic.svg",
                     "/usr/share/plasma/plasmoids/org.screentime.status/contents/locale/de/LC_MESSAGES/plasma_applet_org.screentime.status.mo",
                     "/usr/bin/screentime-browser-host", "/usr/share/chromium/extensions/screentime/manifest.json",
                     "/usr/share/chromium/extensions/screentime/background.js", "/usr/share/chromium/extensions/screentime/overlay.js",
                     "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/screentime@screentime.invalid/manifest.json",
                     "/etc/chromium/native-messaging-hosts/org.screentime.browser.json",
                     "/usr/lib/mozilla/native-messaging-hosts/org.screentime.browser.json"] {
            XCTAssertTrue(files.contains(file), "\(file) is not in the package:\n\(listing.out)")
        }
        XCTAssertTrue(listing.out.split(separator: "\n").allSatisfy { $0.contains(" root/root ") }, listing.out)
        // The Plasma applet runs the installed command, wherever the panel's PATH points.
        let appletConfig = try Self.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \"$1\" | tar -xO ./usr/share/plasma/plasmoids/org.screentime.status/contents/config/main.xml", "sh", deb])
        XCTAssertTrue(appletConfig.out.contains("<default>/usr/bin/screentime</default>"), appletConfig.out + appletConfig.err)
    }

    func testTheInstalledPackageWorksAsAUserWouldUseIt() throws {
        let deb = try deb()
        let version = try version
        let installed = try Self.run("/usr/bin/dpkg", ["-i", deb])
        XCTAssertEqual(installed.status, 0, "dpkg -i: \(installed.out)\(installed.err)")
        addTeardownBlock {
            let removed = try Self.run("/usr/bin/dpkg", ["-r", "screentime"])
            XCTAssertEqual(removed.status, 0, removed.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/bin/screentime"), "dpkg -r leaves no binary")
        }
        XCTAssertEqual(try Self.run("/usr/bin/screentime", ["--version"]).out, "screentime \(version)\n")

        // The manual renders without a warning, by name and by file, and shows the version.
        let manual = try Self.run("/usr/bin/man", ["--warnings", "-l", "/usr/share/man/man1/screentime.1.gz"],
                                  environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        XCTAssertEqual(manual.status, 0, manual.err)
        XCTAssertEqual(manual.err, "", "man --warnings")
        XCTAssertTrue(manual.out.contains("screentime \(version)"), manual.out)
        let byName = try Self.run("/usr/bin/man", ["-P", "cat", "screentime"], environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(byName.status, 0, byName.err)
        XCTAssertTrue(byName.out.contains("EXIT STATUS"), byName.out)

        // Each shell finds the completion where it looks for it, and completes the commands' actions.
        let bash = try Self.run("/bin/bash", ["-c", """
            source /usr/share/bash-completion/completions/screentime; complete -p screentime
            COMP_WORDS=(screentime limit ""); COMP_CWORD=2; _screentime; echo "${COMPREPLY[*]}"
            """])
        XCTAssertEqual(bash.out, "complete -F _screentime screentime\nset rm default list --help\n", bash.err)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-shells-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let shellEnvironment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]
        // A command screentime-reader runs, found beside the installed screentime.
        let calendars = try Self.run("/usr/bin/screentime", ["calendar", "list"], environment: shellEnvironment)
        XCTAssertEqual(calendars.status, 0, calendars.err)
        XCTAssertTrue(calendars.out.hasPrefix("No calendars."), calendars.out)
        let zsh = try Self.run("/usr/bin/zsh", ["-f", "-c", "autoload -U compinit; compinit -u -d \(home.path)/zcompdump; print $_comps[screentime]"],
                               environment: shellEnvironment)
        XCTAssertEqual(zsh.out, "_screentime\n", zsh.err)
        XCTAssertEqual(try Self.run("/usr/bin/zsh", ["-n", "/usr/share/zsh/vendor-completions/_screentime"]).status, 0)
        let fish = try Self.run("/usr/bin/fish", ["-c", "complete -C 'screentime limit '"], environment: shellEnvironment)
        XCTAssertEqual(Set(fish.out.split(separator: "\n")), ["set", "rm", "default", "list"], fish.err)

        // Every desktop entry shipped is valid and starts the installed binaries.
        for entry in ["/etc/xdg/autostart/screentime.desktop", "/usr/share/applications/screentime-agent.desktop"] {
            let validated = try Self.run("/usr/bin/desktop-file-validate", [entry])
            XCTAssertEqual(validated.status, 0, "\(entry): \(validated.out)\(validated.err)")
            XCTAssertEqual(validated.out + validated.err, "", entry)
            XCTAssertTrue(try String(contentsOfFile: entry, encoding: .utf8).contains("Exec=/usr/bin/screentime"), entry)
        }
        let unit = try String(contentsOfFile: "/usr/lib/systemd/user/screentime.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=/usr/bin/screentime agent\n"), unit)
        XCTAssertFalse(unit.contains("@BIN@"), unit)
        try assertTheAutostartCommandStartsTheInstalledAgent()
    }

    /// What the session runs at login (the autostart entry's Exec) starts the installed agent on a
    /// real desktop, and the installed CLI asks it for the status.
    func assertTheAutostartCommandStartsTheInstalledAgent() throws {
        let entry = try String(contentsOfFile: "/etc/xdg/autostart/screentime.desktop", encoding: .utf8)
        let command = try XCTUnwrap(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst(5).split(separator: " "))
        let desk = try DesktopHarness.shared()
        // The night's modes off: the mode is Standard whatever the hour the test runs at.
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "[modes]\nautomatic = off\n")
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: String(try XCTUnwrap(command.first)))
        agent.arguments = command.dropFirst().map(String.init)
        agent.environment = environment
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        addTeardownBlock {
            agent.terminate()
            agent.waitUntilExit()
        }
        XCTAssertTrue(eventually(10) { desk.busNameHasOwner("org.screentime.Agent") }, "the installed agent owns its bus name")
        let status = try Self.run("/usr/bin/screentime", ["status", "--json"], environment: environment)
        XCTAssertEqual(status.status, 0, status.err)
        XCTAssertEqual(try StatusFormat.decode(status.out).mode, "standard")
    }

    /// The manual and the three completions name every command `screentime --help` lists.
    func testTheManualAndCompletionsKnowEveryCommand() throws {
        let help = try AgentProcess.run(["--help"], environment: [:]).out
        let commands = help.split(separator: "\n").drop { $0 != "Commands:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertGreaterThan(commands.count, 20, help)
        let packaging = Self.repository.appendingPathComponent("packaging")
        let manual = try String(contentsOf: packaging.appendingPathComponent("screentime.1"), encoding: .utf8)
        // The words each item of the manual's list starts with (`.B limit set …`, `.BR status …`).
        let items = Set(manual.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let macro = words.first, macro == ".B" || macro == ".BR", words.count > 1 else { return nil }
            return words[1].replacingOccurrences(of: "\\-", with: "-")
        })
        for command in commands {
            XCTAssertTrue(items.contains(command), "screentime.1 lacks \(command)")
        }
        for file in ["screentime.bash", "_screentime", "screentime.fish"] {
            let completion = try String(contentsOf: packaging.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            let words = Set(completion.split(whereSeparator: { " \t\n'\":\"()".contains($0) }).map(String.init))
            for command in commands {
                XCTAssertTrue(words.contains(command), "\(file) lacks \(command)")
            }
        }
    }
}
