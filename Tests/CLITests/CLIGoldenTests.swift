import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// The built `screentime` binary against golden files in `Golden/`. Set SCREENTIME_UPDATE_GOLDEN=1
/// to rewrite them after an intended change (and read the diff).
final class CLIGoldenTests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": home.path + "/share",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try AgentProcess.run(arguments, environment: environment)
    }

    func testHelp() throws {
        let result = try run(["--help"])
        XCTAssertEqual(result.status, 0)
        try assertGolden("help.txt", result.out)
        for command in ["limit", "report", "status", "config", "group", "site", "rule"] {
            let help = try run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            try assertGolden("help-\(command).txt", help.out)
        }
    }

    func testUsageErrorsExit64WithOneLineAndAHint() throws {
        let result = try run(["limit", "set", "firefox", "45x"])
        XCTAssertEqual(result.status, 64)
        try assertGolden("usage-error.txt", result.err)
        let unknown = try run(["frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.err, "screentime: unknown command \"frobnicate\" (see screentime --help)\n")
        XCTAssertEqual(unknown.out, "")
    }

    func testVersion() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0)
        let words = result.out.split(separator: " ")
        XCTAssertEqual(words.first, "screentime", result.out)
        let numbers = words.last.map { $0.dropLast().split(separator: ".", omittingEmptySubsequences: false) } ?? []
        XCTAssertEqual(numbers.count, 3, result.out)
        XCTAssertTrue(numbers.allSatisfy { Int($0) != nil }, result.out)
    }

    func testStatusWithoutAnAgentExits69() throws {
        let result = try run(["status"])
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.err, "screentime status: the screentime agent is not running (start it with `screentime agent`, or log in again)\n")
    }

    func testLimitEditsKeepTheUsersComments() throws {
        let config = home.appendingPathComponent(".config/screentime/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Loosening at once (`loosen = now`): this test is about the file, not the commitment.
        try "# mine\n[limits]\n# the browser\nfirefox = 2h\n[commitment]\nloosen = now\n".write(to: config, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["limit", "set", "firefox", "45m"]).out, "firefox: 45m a day\n")
        XCTAssertEqual(try run(["limit", "default", "1h30m"]).status, 0)
        XCTAssertEqual(try run(["important", "add", "keepassxc"]).status, 0)
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8),
                       "# mine\n[limits]\n# the browser\nfirefox = 45m\ndefault = 1h30m\n[commitment]\nloosen = now\n\n[exemptions]\nimportant = keepassxc\n")
        XCTAssertEqual(try run(["limit", "set", "content", "2h"]).out, "content (group): 2h a day, shared by its apps\n")
        try assertGolden("limit-list.txt", try run(["limit", "list"]).out)
    }

    func testGroupAndRuleEditsKeepTheUsersComments() throws {
        // A loosening waits for the day's next boundary (04:00): "tomorrow" at midday.
        environment["TZ"] = Self.middayZone
        let config = home.appendingPathComponent(".config/screentime/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# mine\n[groups]\n# work\nproductivity = gedit\n".write(to: config, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["group", "add", "productivity", "org.gnome.Builder"]).out, "org.gnome.Builder: in productivity from tomorrow, 04:00; today it is not\n",
                       "joining a group a mode allows is a loosening: it waits for the day start")
        XCTAssertEqual(try run(["group", "rm", "content", "mpv"]).status, 0)
        XCTAssertEqual(try run(["group", "add", "social-apps", "signal-desktop"]).status, 0)
        XCTAssertEqual(try run(["group", "add", "important", "x"]).status, 64)
        XCTAssertEqual(try run(["rule", "add", "docs", "--app", "firefox", "--title", "Docs"]).status, 0)
        XCTAssertEqual(try run(["rule", "add", "news", "--app", "firefox"]).status, 64)
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), """
            # mine
            [groups]
            # work
            productivity = gedit;org.gnome.Builder
            content = -mpv
            social-apps = signal-desktop

            [rules]
            docs = firefox:Docs

            """)
        try assertGolden("group-list.txt", try run(["group", "list"]).out)
        XCTAssertTrue(try run(["rule", "list"]).out.hasSuffix("docs       firefox window titled “…Docs…”\n"))
        XCTAssertEqual(try run(["rule", "rm", "docs"]).out, "docs is no longer a rule\n")
        // A rule just added and taken away again is a typo: at once. A built-in rule removed stays
        // removed, from the day start: its windows' time goes back to the browser.
        XCTAssertEqual(try run(["rule", "rm", "youtube"]).out,
                       "title rule youtube: off from tomorrow, 04:00; today it stays *:YouTube\n")
        XCTAssertEqual(try run(["rule", "rm", "youtube"]).out, "there is no rule youtube\n")
        try assertGolden("rule-list.txt", try run(["rule", "list"]).out)
    }

    /// Two days of recorded usage, as the agent writes it.
    func recordUsage() throws {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        let day = Date(timeIntervalSince1970: 1_795_824_000) // 2026-11-28 00:00 UTC
        func interval(_ app: AppID, _ from: Double, _ minutes: Double, mode: String = "standard") throws {
            let id = try store.beginInterval(app: app, title: "t", mode: mode, at: day.addingTimeInterval(from * 3600))
            try store.extendInterval(id, to: day.addingTimeInterval(from * 3600 + minutes * 60))
        }
        try interval("firefox", 9, 50)
        try interval("xterm", 10, 25)
        try interval("firefox", 11, 20)
        // Straight after: a switch, not a pickup.
        try interval("xterm", 11 + 20.0 / 60, 10, mode: "productivity")
        try interval("org.gnome.Calculator", 12, 3)
        try interval("firefox", 3, 30) // 03:00 belongs to the day before (days start at 04:00)
        try interval("xterm", -14, 60) // 2026-11-27 10:00
        try store.recordLimitHit(app: "firefox", at: day.addingTimeInterval(11 * 3600 + 10 * 60), used: 3600)
        try store.recordBypass(app: "firefox", mode: "standard", rule: .limit, at: day.addingTimeInterval(11 * 3600 + 12 * 60), granted: 3600)
        try store.recordBypass(app: "firefox", mode: "productivity", rule: .mode, at: day.addingTimeInterval(11 * 3600 + 40 * 60), granted: 180)
    }

    /// Desktop entries placing the fixture's apps in groups.
    func installApps() throws {
        let applications = home.appendingPathComponent("share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Firefox\nExec=firefox\nCategories=Network;WebBrowser;\n"
            .write(to: applications.appendingPathComponent("firefox.desktop"), atomically: true, encoding: .utf8)
        try "[Desktop Entry]\nType=Application\nName=XTerm\nExec=xterm\nCategories=System;TerminalEmulator;\n"
            .write(to: applications.appendingPathComponent("xterm.desktop"), atomically: true, encoding: .utf8)
    }

    /// `apps` shows each app's groups (from its desktop entry) and every limit that applies.
    func testSitesAreKeptAsTheirRegistrableDomain() throws {
        environment["TZ"] = Self.middayZone
        XCTAssertEqual(try run(["site", "add", "www.news.example.co.uk"]).out, "example.co.uk is in content\n")
        XCTAssertEqual(try run(["site", "add", "docs.example.org", "--group", "productivity"]).out, "example.org: in productivity from tomorrow, 04:00; today it is not\n")
        XCTAssertEqual(try run(["site", "rm", "m.youtube.com"]).out, "youtube.com: out of content from tomorrow, 04:00; today it stays in\n")
        let bad = try run(["site", "add", "https://www.youtube.com/watch"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("is no site") && bad.err.contains("(see screentime site --help)"), bad.err)
        XCTAssertEqual(try run(["site", "add", "a.com", "--group", "nope"]).status, 64)
        let groups = try run(["group", "list"]).out
        XCTAssertTrue(groups.contains("added example.co.uk") && groups.contains("removed youtube.com"), groups)
        let list = try run(["site", "list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.out.hasPrefix("content   ") && list.out.contains("youtube.com") && list.out.contains("bbc.co.uk"), list.out)
    }

    func testAppsShowsGroupsAndLimits() throws {
        try recordUsage()
        try installApps()
        let config = home.appendingPathComponent(".config/screentime/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[limits]\nbrowsers = 3h\n".write(to: config, atomically: true, encoding: .utf8)
        // The day after the fixture's: its apps are the week's, and today has none of their time.
        environment["SCREENTIME_NOW"] = "1795953600"  // 2026-11-29 12:00 UTC
        let rows = try run(["apps"]).out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        XCTAssertEqual(rows.first, ["APP", "NAME", "GROUPS", "TODAY", "LIMIT"])
        func row(_ app: String) -> String { rows.first { $0.first.map(String.init) == app }?.joined(separator: " ") ?? "" }
        XCTAssertEqual(row("firefox"), "firefox Firefox browsers 0 s browsers 3h")
        XCTAssertEqual(row("xterm"), "xterm XTerm productivity,system 0 s none")
        XCTAssertEqual(row("org.gnome.Calculator"), "org.gnome.Calculator org.gnome.Calculator - 0 s 1h")
    }

    func testReportOfADay() throws {
        try recordUsage()
        try installApps()
        try assertGolden("report-day.txt", try run(["report", "2026-11-28"]).out)
        try assertGolden("report-day.json", try run(["report", "2026-11-28", "--json"]).out)
        try assertGolden("report-day.csv", try run(["report", "2026-11-28", "--csv"]).out)
    }

    /// A week: the days side by side, the daily average, the week before.
    func testReportOfAWeekInEveryFormat() throws {
        try recordUsage()
        try installApps()
        let week = ["report", "--from", "2026-11-22", "--to", "2026-11-28"]
        try assertGolden("report-week.txt", try run(week).out)
        try assertGolden("report-week.json", try run(week + ["--json"]).out)
        try assertGolden("report-week.csv", try run(week + ["--csv"]).out)
    }

    /// `--html` with `--json`: the page is written and the JSON printed (what the agent's weekly
    /// summary runs); `--json` with `--csv` is refused.
    func testReportPageWithTheJSONPrinted() throws {
        try recordUsage()
        try installApps()
        let page = home.appendingPathComponent("report.html")
        let week = ["report", "--from", "2026-11-22", "--to", "2026-11-28"]
        try assertGolden("report-week.json", try run(week + ["--html", page.path, "--json"]).out)
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains("<svg id=\"days\""))
        XCTAssertEqual(try run(week + ["--json", "--csv"]).err, "screentime report: choose one of --json and --csv (see screentime report --help)\n")
    }

    /// The page's charts hold the fixture's numbers, read back from its SVG: each day's stacked
    /// bars add up to the day, each app's bar to its time, the heat map to the total, the
    /// continues per mode; nothing is fetched from elsewhere.
    func testReportPageChartsHoldTheNumbers() throws {
        try recordUsage()
        try installApps()
        let page = home.appendingPathComponent("report.html")
        let result = try run(["report", "--from", "2026-11-22", "--to", "2026-11-28", "--html", page.path])
        XCTAssertEqual(result.status, 0, result.err)
        let html = try String(contentsOf: page, encoding: .utf8)
        func rects(_ chart: String) throws -> [[String: String]] {
            let start = try XCTUnwrap(html.range(of: "<svg id=\"\(chart)\""), chart)
            let end = try XCTUnwrap(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
            return html[start.upperBound..<end.lowerBound].components(separatedBy: "<rect ").dropFirst().map { rect in
                var attributes: [String: String] = [:]
                for pair in rect.prefix(while: { $0 != ">" }).split(separator: " ") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { attributes[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"/")) }
                }
                return attributes
            }
        }
        func seconds(_ rects: [[String: String]], where key: String, is value: String) -> Int {
            rects.filter { $0[key] == value }.compactMap { $0["data-seconds"].flatMap { Int($0) } }.reduce(0, +)
        }
        let days = try rects("days")
        XCTAssertEqual(seconds(days, where: "data-day", is: "2026-11-27"), 5400)
        XCTAssertEqual(seconds(days, where: "data-day", is: "2026-11-28"), 6480)
        XCTAssertEqual(seconds(days, where: "data-group", is: "browsers"), 6000)
        let apps = try rects("apps")
        XCTAssertEqual(apps.map { $0["data-app"] ?? "" }, ["firefox", "xterm", "org.gnome.Calculator"])
        XCTAssertEqual(apps.map { $0["data-seconds"] ?? "" }, ["6000", "5700", "180"])
        let hours = try rects("hours")
        XCTAssertEqual(hours.count, 7 * 24)
        XCTAssertEqual(hours.compactMap { $0["data-seconds"].flatMap { Int($0) } }.reduce(0, +), 11_880)
        XCTAssertEqual(seconds(hours, where: "data-hour", is: "9"), 3000)
        XCTAssertEqual(try rects("continues").map { "\($0["data-mode"] ?? ""):\($0["data-count"] ?? "")" }, ["productivity:1", "standard:1"])
        let outside = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for reference in ["http", "src=", "href=", "<script", "url("] { XCTAssertFalse(outside.contains(reference), reference) }
    }

    /// The bars take the width COLUMNS gives: the longest bar's line is exactly that wide.
    func testReportBarsFitTheTerminalWidth() throws {
        try recordUsage()
        for columns in [60, 120] {
            environment["COLUMNS"] = String(columns)
            let lines = try run(["report", "--from", "2026-11-22", "--to", "2026-11-28"]).out.split(separator: "\n").filter { $0.contains("█") }
            XCTAssertEqual(lines.map(\.count).max(), columns, "COLUMNS=\(columns)")
        }
    }
}

/// `status` from the built binary, asking a real running agent (the desktop harness).
final class StatusGoldenTests: XCTestCase {
    func testStatusOfAFreshDay() throws {
        let desk = try DesktopHarness.shared()
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        environment["TZ"] = "UTC"
        let agent = try AgentProcess(environment: environment, desk: desk)
        let text = try agent.cli(["status"])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertEqual(text.out, """
            Mode: Standard (always on when no other mode is active)
            Sleep times: bedtime 23:00 (default until 3 nights are known), wake time 07:00 (default until 3 nights are known)
            Today: 0 s of app time since 04:00
            No app time yet today.
            Commands: screentime report today · screentime limit set APP 1h · screentime important add APP

            """)
        let json = try StatusFormat.decode(agent.cli(["status", "--json"]).out)
        XCTAssertEqual(json.mode, "standard")
        XCTAssertEqual(json.apps, [])
        XCTAssertNil(json.next)
    }
}
