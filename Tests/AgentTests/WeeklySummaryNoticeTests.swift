import Foundation
import ScreenTimeCore
import Harnesses
import LocalSystem
import UsageStore
import XCTest

/// The weekly summary on the real desktop (Xvfb, openbox, the session bus, dunst): the first focus
/// of a new week shows last week's figures from a real `screentime report` child, dunst's default
/// action opens the page it wrote (through a stand-in `xdg-open` on PATH that records its
/// argument), and a restarted agent does not show it again.
final class WeeklySummaryNoticeTests: XCTestCase {
    func testTheFirstFocusOfAWeekShowsLastWeekAndItsActionOpensThePage() throws {
        // Issue 19: the page and the state are private whatever the umask the agent starts with.
        let umasked = umask(0o022)
        defer { umask(umasked) }
        let desk = try DesktopHarness.shared()
        let windows = try TestWindowClient(display: desk.display)
        let monitor = try BusMonitor(address: desk.busAddress)
        let dunst = try DunstControl(desktop: desk)
        // The suite's zone (midday whatever the hour): at 22:00 UTC a UTC agent would be in Wind Down.
        var environment = try AgentProcess.freshEnvironment(on: desk, config: "[general]\nidle-after = 1h\n")
        let home = URL(fileURLWithPath: environment["HOME"]!)

        // Last week 2 h 30 min (Firefox 2 h, XTerm 30 min), the week before 1 h.
        let zone = SystemTimeZone(), boundary = DayBoundary()
        let thisWeek = WeeklySummary.week(containing: Date(), boundary: boundary, weekStart: .monday, zone: zone)
        let store = try UsageDatabase(path: XDGPaths.databaseFile(environment: environment))
        func interval(_ app: AppID, daysBefore: Int, minutes: Double) throws {
            let start = boundary.start(ofDay: thisWeek.adding(days: -daysBefore), in: zone).addingTimeInterval(6 * 3600)
            let id = try store.beginInterval(app: app, title: "", mode: "standard", at: start)
            try store.extendInterval(id, to: start.addingTimeInterval(minutes * 60))
        }
        try interval("firefox", daysBefore: 6, minutes: 120)
        try interval("xterm", daysBefore: 2, minutes: 30)
        try interval("firefox", daysBefore: 10, minutes: 60)
        try "[Desktop Entry]\nType=Application\nName=Firefox\nExec=firefox\nCategories=Network;WebBrowser;\n"
            .write(to: try AgentProcess.applicationsFolder(environment).appendingPathComponent("firefox.desktop"), atomically: true, encoding: .utf8)
        // Shown last week already.
        let state = home.appendingPathComponent(".local/state/screentime")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try "\(thisWeek.adding(days: -7))\n".write(to: state.appendingPathComponent("weekly-summary"), atomically: true, encoding: .utf8)
        // The desktop's opener, standing in for the browser.
        let bin = home.appendingPathComponent("bin"), opened = home.appendingPathComponent("opened")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" > \(opened.path)\n".write(to: bin.appendingPathComponent("xdg-open"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("xdg-open").path)
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

        try dunst.closeAll()
        let agent = try AgentProcess(environment: environment, desk: desk)
        let window = try windows.openWindow(class: "Reader", title: "news")
        windows.activate(window)

        let notice = try monitor.waitForNotify(timeout: 10) { $0.summary.hasPrefix("Last week:") }
        XCTAssertEqual(notice.summary, "Last week: 2 h 30 min of screen time")
        XCTAssertTrue(notice.body.hasSuffix("21 min a day on average; 1 h 30 min more than the week before. Most used: Firefox, 2 h.\n"
                                            + "<a href=\"file://\(state.path)/last-week.html\">Open the full report</a>"), notice.body)
        XCTAssertEqual(notice.actions, ["default", "Open the report"])
        let page = try String(contentsOf: state.appendingPathComponent("last-week.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("data-app=\"firefox\" data-seconds=\"7200\""), "the page holds last week")
        XCTAssertEqual(try String(contentsOf: state.appendingPathComponent("weekly-summary"), encoding: .utf8), "\(thisWeek)\n")
        for (path, mode) in [(state.path, 0o700), (state.path + "/last-week.html", 0o600), (state.path + "/weekly-summary", 0o600)] {
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, mode,
                           "\(path) (the folder was made 0755, as an earlier version made it)")
        }

        try dunst.invokeDefaultAction()
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: opened.path) }, agent.log)
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8), state.path + "/last-week.html\n")
        XCTAssertEqual(agent.stop(), 0, agent.log)
        XCTAssertEqual(agent.log.components(separatedBy: "weekly summary: reporting").count, 2, agent.log)

        // Restarted in the same week: the focus is taken in, no second summary.
        let again = try AgentProcess(environment: environment, desk: desk)
        let other = try windows.openWindow(class: "Writer", title: "draft")
        windows.activate(other)
        XCTAssertTrue(eventually { (try? StatusFormat.decode(again.cli(["status", "--json"]).out).focused) == AppID("writer") }, again.log)
        XCTAssertEqual(again.stop(), 0, again.log)
        XCTAssertFalse(again.log.contains("weekly summary"), again.log)
    }
}
