import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Debian's `chromium` as a real window on the harness's desktop, with its own profile, the
/// project's extension loaded as the Debian wrapper loads extensions (`--load-extension`), the
/// built native host named by a manifest in the profile, the real agent, and local pages served
/// from 127.0.0.1 under the sites' names (`--host-resolver-rules`; every other name resolves to nothing).
final class ChromiumExtensionTests: XCTestCase {
    var desk: DesktopHarness!
    var server: LocalHTTPServer!
    static let extensionID = "bgggkhdeebpkhdbkoidhnlpmadcmdcoc"
    /// Names no browser upgrades to https by itself (youtube.com and the like are on Chromium's HSTS
    /// preload list, and the local server speaks plain http): `video.example.net` is made a content site.
    static let sites = ["www.video.example.net", "docs.example.org", "m.chat.example.com"]
    static let config = "[general]\nidle-after = 1h\n[groups]\ncontent = example.net\n"

    static var extensionFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("desktop/browser/extension")
    }

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        server = try LocalHTTPServer(.page("<!doctype html><html><head><title>A page</title></head><body><h1>A page</h1><p>Text.</p></body></html>"))
    }

    override func tearDown() {
        server?.stop()
    }

    func startChromium(_ agent: AgentProcess) throws -> HeadlessChromium {
        let rules = Self.sites.map { "MAP \($0) 127.0.0.1:\(server.port)" }.joined(separator: ", ") + ", MAP * ~NOTFOUND"
        let windowed = HeadlessChromium.Windowed(environment: agent.environment, arguments: [
            "--load-extension=\(Self.extensionFolder.path)", "--host-resolver-rules=\(rules)", "--window-size=900,700",
        ])
        return try HeadlessChromium(directory: agent.home, windowed: windowed) { profile in
            // The per-user folder of native messaging hosts is the profile's own.
            let hosts = profile.appendingPathComponent("NativeMessagingHosts")
            try FileManager.default.createDirectory(at: hosts, withIntermediateDirectories: true)
            let manifest = """
            {"name": "org.screentime.browser", "description": "Screen Time", "path": "\(FakeBrowserPeer.binary.path)",
             "type": "stdio", "allowed_origins": ["chrome-extension://\(Self.extensionID)/"]}
            """
            try manifest.write(to: hosts.appendingPathComponent("org.screentime.browser.json"), atomically: true, encoding: .utf8)
        }
    }

    func focused(_ agent: AgentProcess) -> AppID? {
        guard let json = try? agent.call(AgentInterface.Method.status).first?.stringValue else { return nil }
        return try? StatusFormat.decode(json).focused
    }

    func connectedBrowsers(_ agent: AgentProcess) -> String {
        (try? agent.call(AgentInterface.Method.browsers).first?.stringValue) ?? ""
    }

    func startAll(config: String = config) throws -> (AgentProcess, HeadlessChromium, [HeadlessChromium.Tab]) {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
        let chromium = try startChromium(agent)
        let tabs = try Self.sites.map { try chromium.openTab("http://\($0)/") }
        guard eventually(20, { self.connectedBrowsers(agent).contains("\"name\":\"chromium\"") }) else {
            throw DesktopHarness.Failure.didNotStart("the extension's native host", "log: \(agent.log)")
        }
        return (agent, chromium, tabs)
    }

    func testTimeIsCountedPerSiteAsTabsSwitch() throws {
        let (agent, chromium, tabs) = try startAll()
        // Until the extension connected, the window was the browser's: from now on it is the sites'.
        let browserBefore = try agent.usedSeconds("chromium")
        let host = Self.hosts(of: chromium.pid).first ?? 0
        let cpuBefore = Self.cpuTicks(host)
        var latencies: [Double] = []
        for round in 0..<10 {
            for (index, site) in ["example.net", "example.org"].enumerated() {
                let switched = Date()
                try chromium.activate(tabs[index])
                XCTAssertTrue(eventually(5) { self.focused(agent) == AppID(site) }, "round \(round): \(site) in front; \(agent.log)")
                latencies.append(Date().timeIntervalSince(switched) * 1000)
                usleep(100_000) // a tenth of a second on each site, the time the figures count
            }
        }
        latencies.sort()
        print(String(format: "chromium figures: the host's CPU %.1f ms over %d switches; its RSS %d KiB",
                     Double(Self.cpuTicks(host) - cpuBefore) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK))), latencies.count, Self.residentKiB(host)))
        print(String(format: "chromium figures: tab switch to the agent's new focus median %.0f ms, p90 %.0f ms (%d switches)",
                     latencies[latencies.count / 2], latencies[latencies.count * 9 / 10], latencies.count))
        let doctor = try agent.cli(["doctor"]).out.split(separator: "\n").first { $0.contains(" chromium ") }.map(String.init) ?? ""
        XCTAssertTrue(doctor.hasPrefix("ok") && doctor.contains("the extension is connected"), doctor)
        let status = try agent.status()
        for site in ["example.net", "example.org"] {
            XCTAssertGreaterThan(status.apps.first { $0.id == AppID(site) }?.usedSeconds ?? 0, 0.5, "\(site) counted")
        }
        XCTAssertLessThan((status.apps.first { $0.id == "chromium" }?.usedSeconds ?? 0) - browserBefore, 0.5,
                          "the time went to the sites, not the browser")
    }

    func testALimitShowsTheCardInTheTabAndAnotherTabStaysUsable() throws {
        let (agent, chromium, tabs) = try startAll()
        try chromium.activate(tabs[0])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, agent.log)
        // Past the 1 s limit set below, so that it is reached at once.
        try Wait.until("example.net to be counted past 1 s", detail: agent.log) { try agent.usedSeconds("example.net") > 1.1 }
        let cardShown = "document.querySelector('screentime-card')?.dataset.site ?? null"
        let limited = Date()
        XCTAssertEqual(try agent.call(AgentInterface.Method.setLimit, [.string("example.net"), .uint64(1)]), [.strings([])], "a new limit holds at once")
        XCTAssertTrue(eventually(5) { (try? chromium.evaluate(tabs[0], cardShown)) as? String == "example.net" }, agent.log)
        let cardMs = Date().timeIntervalSince(limited) * 1000
        print(String(format: "chromium figures: limit to the in-tab card %.0f ms", cardMs))
        XCTAssertLessThan(cardMs, 300, "the card within 300 ms of the limit")
        // Another tab of the same window: no card, counted.
        try chromium.activate(tabs[1])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.org" }, agent.log)
        XCTAssertNil(try chromium.evaluate(tabs[1], cardShown) as? String)
        let before = try agent.usedSeconds("example.org")
        try Wait.until("example.org's time to grow", detail: agent.log) { try agent.usedSeconds("example.org") > before }
        XCTAssertGreaterThan(try agent.usedSeconds("example.org"), before, "the other tab is counted")
        // Back to the site: the card again; Enter on its way through ("Continue for 1 hour").
        try chromium.activate(tabs[0])
        XCTAssertTrue(eventually(5) { (try? chromium.evaluate(tabs[0], cardShown)) as? String == "example.net" })
        try chromium.press(tabs[0], key: "Enter", code: 13)
        XCTAssertTrue(eventually(5) { (try? agent.status().apps.first { $0.id == "example.net" }?.continues) == 1 }, agent.log)
        XCTAssertTrue(eventually(5) { ((try? chromium.evaluate(tabs[0], cardShown)) ?? "x") == nil || (try? chromium.evaluate(tabs[0], cardShown)) is NSNull },
                      "the card goes once continued")
        let continued = try agent.usedSeconds("example.net")
        try Wait.until("example.net's time to grow again", detail: agent.log) { try agent.usedSeconds("example.net") > continued }
        XCTAssertGreaterThan(try agent.usedSeconds("example.net"), continued, "the site is counted again")
    }

    /// A private window, which the extension may not see (Chromium's default for every extension):
    /// its time is the browser's, never a site's, neither the private page's nor the last site the
    /// other window showed; back in the other window, its site counts again.
    func testAPrivateWindowReportsNothingAndCountsAsTheBrowser() throws {
        let (agent, chromium, tabs) = try startAll()
        let windows = try TestWindowClient(display: desk.display)
        try chromium.activate(tabs[0])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, agent.log)
        let browserWindows = { windows.clientList().filter { windows.pid(of: TestWindow(xid: $0)) == chromium.pid } }
        let normal = browserWindows()
        XCTAssertEqual(normal.count, 1, "one window before the private one")
        try chromium.openPrivateWindow("http://docs.example.org/private")
        var privateWindow: TestWindow?
        try Wait.until("the private window to be managed", detail: agent.log) {
            privateWindow = browserWindows().first { !normal.contains($0) }.map(TestWindow.init(xid:))
            return privateWindow != nil
        }
        let pages = try chromium.pages()
        let context = { (url: String) in pages.first { $0.url == url }?.context }
        XCTAssertNotNil(context("http://docs.example.org/private"), "\(pages)")
        XCTAssertNotEqual(context("http://docs.example.org/private"), context("http://www.video.example.net/"), "the new window is private: \(pages)")
        windows.activate(privateWindow!)
        XCTAssertTrue(eventually(5) { self.focused(agent) == "chromium" }, "the private window is the browser: \(agent.log)")
        let before = (try agent.status().apps, try agent.usedSeconds("chromium"))
        let used = { (id: AppID, apps: [StatusSnapshot.App]) in apps.first { $0.id == id }?.usedSeconds ?? 0 }
        try Wait.until("the browser's time to grow by 2 s", detail: agent.log) { try agent.usedSeconds("chromium") > before.1 + 2 }
        let after = try agent.status().apps
        for site in ["example.net", "example.org"] {
            XCTAssertEqual(used(AppID(site), after), used(AppID(site), before.0), accuracy: 0.01, "\(site) gains nothing from the private window")
        }
        XCTAssertEqual(try agent.status().focused, "chromium", "still the browser")
        windows.activate(TestWindow(xid: normal[0]))
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, "the other window's site again: \(agent.log)")
    }

    /// The browser closed: its site stops counting at once and its host leaves the agent's list;
    /// opened again, the extension connects a new host and the site counts on from where it stood.
    func testTheBrowserClosedAndOpenedAgainCountsNothingMeanwhileAndReconnects() throws {
        // The browser held here alone, so that letting it go closes it.
        var chromium: HeadlessChromium?
        let (agent, tabs) = try { let (agent, started, tabs) = try startAll(); chromium = started; return (agent, tabs) }()
        try chromium!.activate(tabs[0])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, agent.log)
        try Wait.until("example.net to be counted", detail: agent.log) { try agent.usedSeconds("example.net") > 0.5 }
        let pid = chromium!.pid
        let beforeClose = (try agent.usedSeconds("example.net"), Date())
        chromium = nil  // closed as a user closes it (Browser.close), its host with it
        try Wait.until("the closed browser's host to leave the agent", detail: agent.log) {
            !self.connectedBrowsers(agent).contains("\"pid\":\(pid),")
        }
        let closed = (try agent.usedSeconds("example.net"), Date())
        XCTAssertLessThanOrEqual(closed.0 - beforeClose.0, closed.1.timeIntervalSince(beforeClose.1) + 0.2, "nothing counted twice")
        XCTAssertNotEqual(focused(agent), "example.net", "the site is gone with its window")
        usleep(1_500_000)  // the time that must not count
        XCTAssertEqual(try agent.usedSeconds("example.net"), closed.0, accuracy: 0.01, "nothing counted while the browser is closed")
        let reopened = try startChromium(agent)
        let tab = try reopened.openTab("http://www.video.example.net/")
        XCTAssertTrue(eventually(20) { self.connectedBrowsers(agent).contains("\"pid\":\(reopened.pid),") }, "a new host: \(agent.log)")
        try reopened.activate(tab)
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, "the reopened browser's site: \(agent.log)")
        try Wait.until("example.net to count on", detail: agent.log) { try agent.usedSeconds("example.net") > closed.0 + 0.5 }
    }

    /// Wind Down holds a content site back in its tab with the desktop card's content: the user's
    /// calm alternative (a link), Go to bed and Stay up beside the way through; Enter on the card
    /// (Go to bed, its main action) is Sleep, as from the desktop's card.
    func testWindDownsCardInTheTabOffersItsContentAndGoToBedIsSleep() throws {
        let calm = "http://docs.example.org/calm"
        let (agent, chromium, tabs) = try startAll(config: Self.config + "[wind-down]\nalternatives = \(calm)\n")
        try chromium.activate(tabs[0])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, agent.log)
        XCTAssertEqual(try agent.cli(["mode", "wind-down"]).status, 0)
        let choices = { (try? chromium.evaluate(tabs[0], "document.querySelector('screentime-card')?.dataset.choices ?? ''")) as? String ?? "" }
        try Wait.until("Wind Down's content on the tab's card", detail: "\(choices()); \(agent.log)") {
            choices().split(separator: " ").map(String.init) == ["launch:\(calm)", "bedtime", "stay-up", "continue", "close-tab"]
        }
        try chromium.press(tabs[0], key: "Enter", code: 13)
        try Wait.until("Go to bed from the tab to be Sleep", detail: agent.log) { try agent.status().mode == "sleep" }
    }

    /// A process's user and system CPU time, in clock ticks.
    static func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    }

    static func residentKiB(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
    }

    /// The browser's native host processes (its children running the built host).
    static func hosts(of browser: pid_t) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat.contains("(screentime-brow") && fields.count > 2 && Int32(fields[1]) == browser
        }
    }

    func testTheHostKilledIsStartedAgainAndNothingIsCountedTwice() throws {
        let (agent, chromium, tabs) = try startAll()
        try chromium.activate(tabs[1])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.org" }, agent.log)
        let hosts = Self.hosts(of: chromium.pid)
        XCTAssertEqual(hosts.count, 1, "one host, the browser's child: its parent is the pid of the browser's windows")
        let before = (try agent.usedSeconds("example.org"), Date())
        let listing = connectedBrowsers(agent)
        for host in hosts { kill(host, SIGKILL) }
        XCTAssertTrue(eventually(10) { Self.hosts(of: chromium.pid).count == 1 && !Self.hosts(of: chromium.pid).contains(hosts[0])
                                       && self.connectedBrowsers(agent) != listing }, "the extension started a new host: \(agent.log)")
        XCTAssertEqual(focused(agent), "example.org", "the site stayed in front meanwhile")
        let after = (try agent.usedSeconds("example.org"), Date())
        XCTAssertLessThanOrEqual(after.0 - before.0, after.1.timeIntervalSince(before.1) + 0.2, "nothing counted twice")
        XCTAssertGreaterThan(after.0 - before.0, after.1.timeIntervalSince(before.1) - 1, "nothing lost")
        try chromium.activate(tabs[0])
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" }, "the new host reports tab switches: \(agent.log)")
    }
}
