import Foundation
import Harnesses
import XCTest

/// Issue 19: under umask 022 the config, the feed cache and the report page came out 0755/0644.
/// The built binaries and the real store, each folder and file read back.
extension CLIGoldenTests {
    func mode(_ path: String) -> String {
        var status = stat()
        guard lstat(home.path + "/" + path, &status) == 0 else { return "missing" }
        return String(status.st_mode & 0o7777, radix: 8)
    }

    func testTheUsersFilesArePrivateUnderUmask022() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        try writeFile("feeds/news.xml", """
            <?xml version="1.0"?><rss version="2.0"><channel><title>News</title>
            <item><title>Snow</title><link>https://example.org/snow</link></item></channel></rss>
            """)
        let set = try run(["config", "set", "rundown.feeds", "file://\(home.path)/feeds/news.xml"])
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(try run(["limit", "set", "firefox", "45m"]).status, 0)
        XCTAssertEqual(mode(".config"), "700", "a missing base folder is made 0700 (XDG)")
        XCTAssertEqual(mode(".config/screentime"), "700")
        XCTAssertEqual(mode(".config/screentime/config"), "600")
        XCTAssertEqual(mode(".config/screentime/config.lock"), "600")

        let rundown = try run(["rundown"])
        XCTAssertEqual(rundown.status, 0, rundown.err)
        XCTAssertTrue(rundown.out.contains("Snow"), rundown.out)
        XCTAssertEqual(mode(".cache"), "700")
        XCTAssertEqual(mode(".cache/screentime/feeds"), "700")
        let cached = try FileManager.default.contentsOfDirectory(atPath: home.path + "/.cache/screentime/feeds")
        XCTAssertEqual(cached.count, 1, "\(cached)")
        XCTAssertEqual(cached.map { mode(".cache/screentime/feeds/" + $0) }, ["600"])

        try recordUsage()
        XCTAssertEqual(mode(".local/share/screentime"), "700")
        XCTAssertEqual(mode(".local/share/screentime/screentime.db"), "600")
        for log in ["-wal", "-shm"] where mode(".local/share/screentime/screentime.db" + log) != "missing" {
            XCTAssertEqual(mode(".local/share/screentime/screentime.db" + log), "600", log)
        }
        let report = try run(["report", "--from", "2026-11-22", "--to", "2026-11-28", "--html", home.path + "/report.html"])
        XCTAssertEqual(report.status, 0, report.err)
        XCTAssertEqual(mode("report.html"), "600", "a week of per-app, per-hour usage")
    }

    /// A config the user made readable by others on purpose (a dotfiles checkout) keeps its mode.
    func testAnExistingConfigKeepsTheModeItsOwnerGaveIt() throws {
        try writeFile(".config/screentime/config", "[limits]\n")
        XCTAssertEqual(chmod(home.path + "/.config/screentime/config", 0o644), 0)
        XCTAssertEqual(try run(["limit", "set", "firefox", "45m"]).status, 0)
        XCTAssertEqual(mode(".config/screentime/config"), "644")
        XCTAssertEqual(mode(".config/screentime"), "700", "screentime's own folder is narrowed")
    }
}
