import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The extension's top-bar indicator and Quick Settings menu (desktop/gnome-shell/indicator.js)
/// on the real, headless GNOME Shell 43, with a real agent: what they show is read through the
/// extension's test-only probe, and the menu's buttons are activated as a click on them would.
final class GnomeShellIndicatorTests: GnomeShellTestCase {
    /// An agent on the shell, the time-of-day modes by hand only; `entries` become desktop entries.
    func startAgent(config extra: String = "", entries: [String: String] = [:]) throws -> AgentProcess {
        let environment = try AgentProcess.freshEnvironment(on: shell, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = off
            \(extra)
            """)
        let applications = try AgentProcess.applicationsFolder(environment)
        for (id, entry) in entries {
            try entry.write(to: applications.appendingPathComponent("\(id).desktop"), atomically: true, encoding: .utf8)
        }
        let agent = try AgentProcess(environment: environment, desk: shell)
        XCTAssertTrue(eventually(10) { self.probe()["visible"] as? Bool == true }, "the indicator shows once the agent runs: \(probe())")
        return agent
    }

    func probe() -> [String: Any] { (try? shell.indicator()) ?? [:] }

    /// The setting back on for the next test, through the menu's switch as a user would.
    func showInTopBarAgain() {
        if probe()["showInTopBar"] as? Bool == false { _ = try? shell.activateMenuItem("Show in the top bar") }
        XCTAssertTrue(eventually { self.probe()["showInTopBar"] as? Bool == true }, "\(probe())")
    }

    var text: String { probe()["text"] as? String ?? "" }
    var icon: String { probe()["icon"] as? String ?? "" }

    func menuLabels() -> [String] {
        (probe()["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
    }

    func activate(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(eventually { self.menuLabels().contains(label) }, "the menu offers “\(label)”: \(menuLabels())", file: file, line: line)
        XCTAssertTrue(try shell.activateMenuItem(label), "“\(label)” activated", file: file, line: line)
    }

    func mode(_ agent: AgentProcess) -> String { (try? agent.status().mode) ?? "" }

    static let editor = ["steditor": "[Desktop Entry]\nType=Application\nName=Editor\nExec=steditor\nCategories=Development;TextEditor;\n"]

    func testTheIndicatorShowsTheModesIconAndTodaysTimeThenTheTimeLeftNearALimit() throws {
        let agent = try startAgent(entries: Self.editor)
        try shell.openWindow(appID: "steditor")
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("steditor") }, agent.log)
        XCTAssertTrue(eventually { self.icon == "screentime-standard-symbolic.svg" }, "\(probe())")
        XCTAssertNotNil(text.range(of: #"^[0-9]+ min$"#, options: .regularExpression), "today's total: \(text)")

        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { self.icon == "screentime-productivity-symbolic.svg" }, "\(probe())")
        XCTAssertEqual(probe()["toggleChecked"] as? Bool, true, "a mode other than Standard lights the toggle")

        // A limit within the countdown's 30 minutes: the focused app's time left instead.
        XCTAssertEqual(try agent.cli(["limit", "set", "steditor", "20m"]).status, 0)
        XCTAssertTrue(eventually { self.text.hasPrefix("Editor: ") && self.text.hasSuffix(" min left") }, "time left near the limit: \(probe())")
        XCTAssertTrue(["Editor: 19 min left", "Editor: 20 min left"].contains(text), text)

        XCTAssertEqual(try agent.cli(["mode", "auto"]).status, 0)
        XCTAssertTrue(eventually { self.icon == "screentime-standard-symbolic.svg" }, "\(probe())")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// Near means the user's own countdown: with `countdown = 10m;1m` a limit 20 minutes away
    /// leaves the day's total in the top bar, one 8 minutes away shows the time left.
    func testTheTimeLeftShowsFromTheUsersFirstCountdownMark() throws {
        let agent = try startAgent(config: "[general]\ncountdown = 10m;1m\n", entries: Self.editor)
        try shell.openWindow(appID: "steditor")
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("steditor") }, agent.log)
        XCTAssertEqual(try agent.status().countdownSeconds, 600)
        XCTAssertEqual(try agent.cli(["limit", "set", "steditor", "20m"]).status, 0)
        XCTAssertTrue(eventually { (try? agent.status().apps.first { $0.id == AppID("steditor") }?.limitSeconds) == 1200 }, agent.log)
        XCTAssertTrue(Wait.poll(timeout: 1) { self.text.hasSuffix(" left") } == false, "20 min is not near with a 10 min countdown: \(probe())")
        XCTAssertNotNil(text.range(of: #"^[0-9]+ min$"#, options: .regularExpression), "today's total: \(text)")
        XCTAssertEqual(try agent.cli(["limit", "set", "steditor", "8m"]).status, 0)
        XCTAssertTrue(eventually { ["Editor: 7 min left", "Editor: 8 min left"].contains(self.text) }, "time left within the countdown: \(probe())")

        // The user who would rather see the day's time: the menu's switch (the key show-time-left).
        defer { if probe()["showTimeLeft"] as? Bool == false { _ = try? activate("Time left near a limit") } }
        try activate("Time left near a limit")
        XCTAssertTrue(eventually { self.text.range(of: #"^[0-9]+ min$"#, options: .regularExpression) != nil }, "today's total again: \(probe())")
        XCTAssertEqual(probe()["showTimeLeft"] as? Bool, false)
        try activate("Time left near a limit")
        XCTAssertTrue(eventually { self.text.hasPrefix("Editor: ") }, "and the time left back: \(probe())")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// The menu's buttons call the methods the CLI's commands of the same name call: the mode
    /// and its reason come out as `screentime mode productivity` leaves them.
    func testTheMenusButtonsChangeTheModeAsTheCommandsDo() throws {
        let agent = try startAgent()
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        // The reason names the minute of the switch, which may turn between the two switches.
        func withoutMinute(_ reason: String) -> String {
            reason.replacingOccurrences(of: #"[0-9]{2}:[0-9]{2}"#, with: "hh:mm", options: .regularExpression)
        }
        let byTheCommand = withoutMinute(try agent.status().reason)
        XCTAssertTrue(byTheCommand.contains("you switched at"), byTheCommand)
        XCTAssertEqual(try agent.cli(["mode", "auto"]).status, 0)
        XCTAssertTrue(eventually { self.mode(agent) == "standard" && self.menuLabels().contains("Productivity on") }, "\(menuLabels())")
        XCTAssertTrue(menuLabels().contains { $0.hasPrefix("Today: ") }, "the day's figures in Standard: \(menuLabels())")

        try activate("Productivity on")
        XCTAssertTrue(eventually { self.mode(agent) == "productivity" }, agent.log)
        XCTAssertEqual(withoutMinute(try agent.status().reason), byTheCommand)
        XCTAssertTrue(eventually { self.icon == "screentime-productivity-symbolic.svg" }, "\(probe())")

        try activate("Take a break now")
        XCTAssertTrue(eventually { (try? agent.status().breakSecondsLeft) != nil }, "a break, as `screentime break`: \(agent.log)")
        try activate("Productivity off")
        XCTAssertTrue(eventually { self.mode(agent) == "standard" }, agent.log)

        try activate("Social on")
        XCTAssertTrue(eventually { self.mode(agent) == "social" }, agent.log)
        try activate("Social off")
        XCTAssertTrue(eventually { self.mode(agent) == "standard" }, agent.log)

        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// In Wind Down (from the pinned bedtime) and Sleep the figures give way to the evening's
    /// buttons: Go to bed is `screentime bedtime`, Start the day `start-day`, Stay up `stay-up`.
    func testInWindDownAndSleepTheEveningsButtonsReplaceTheFigures() throws {
        let agent = try AgentProcess.inWindDown(on: shell)
        XCTAssertTrue(eventually(10) { self.mode(agent) == "wind-down" && self.icon == "screentime-wind-down-symbolic.svg" }, "\(probe())")
        XCTAssertTrue(eventually { self.menuLabels().contains("Go to bed") && self.menuLabels().contains("Stay up") }, "\(menuLabels())")
        XCTAssertFalse(menuLabels().contains { $0.hasPrefix("Today: ") }, "no figures in Wind Down: \(menuLabels())")
        try activate("Go to bed")
        XCTAssertTrue(eventually { self.mode(agent) == "sleep" }, agent.log)
        XCTAssertTrue(eventually { self.icon == "screentime-sleep-symbolic.svg" }, "\(probe())")
        XCTAssertFalse(menuLabels().contains { $0.hasPrefix("Today: ") }, "no figures in Sleep: \(menuLabels())")
        try activate("Start the day")
        XCTAssertTrue(eventually { self.mode(agent) != "sleep" }, agent.log)
        XCTAssertEqual(agent.stop(), 0, agent.log)

        let again = try AgentProcess.inWindDown(on: shell)
        XCTAssertTrue(eventually(10) { self.mode(again) == "wind-down" }, again.log)
        try activate("Stay up")
        XCTAssertTrue(eventually { self.mode(again) != "wind-down" }, "Wind Down paused: \(again.log)")
        XCTAssertEqual(again.stop(), 0, again.log)
    }

    /// A Productivity the schedule holds: "Productivity off" asks first, in the words the
    /// terminal shows, and leaving it early is the CLI's confirmed LeaveMode, a continue.
    func testLeavingAScheduledModeAsksAsTheTerminalDoes() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let start = calendar.dateComponents([.hour, .minute], from: Date().addingTimeInterval(-1800))
        let at = String(format: "%02d:%02d", start.hour!, start.minute!)
        let agent = try startAgent(config: "[schedule]\nwork = productivity \(at) 3h\n")
        XCTAssertTrue(eventually { self.mode(agent) == "productivity" }, agent.log)
        let asked = try agent.cli(["mode", "standard"])
        XCTAssertNotEqual(asked.status, 0, "the terminal asks first: \(asked.out)")
        let question = asked.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(question.isEmpty)

        try activate("Productivity off")
        XCTAssertTrue(eventually { self.menuLabels().contains(question) }, "the menu asks the same: \(menuLabels()) vs \(question)")
        XCTAssertEqual(mode(agent), "productivity", "nothing changes before the answer")
        try activate("Keep it")
        XCTAssertTrue(eventually { self.menuLabels().contains("Productivity off") && !self.menuLabels().contains(question) }, "\(menuLabels())")

        try activate("Productivity off")
        try activate("Leave it early")
        XCTAssertTrue(eventually { self.mode(agent) != "productivity" }, "left early, as `mode standard --yes`: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    func testTheIndicatorGoesWithTheAgentAndComesBackWithIt() throws {
        let agent = try startAgent()
        XCTAssertEqual(agent.stop(), 0, agent.log)
        XCTAssertTrue(eventually { self.probe()["visible"] as? Bool == false }, "gone with the agent: \(probe())")
        XCTAssertEqual(probe()["toggleVisible"] as? Bool, true, "the toggle stays, with the hint")
        XCTAssertTrue(menuLabels().contains { $0.contains("systemctl --user start screentime") }, "\(menuLabels())")

        let again = try startAgent()
        XCTAssertTrue(eventually { self.icon == "screentime-standard-symbolic.svg" }, "\(probe())")
        XCTAssertFalse(menuLabels().contains { $0.contains("systemctl --user start screentime") }, "\(menuLabels())")
        XCTAssertEqual(again.stop(), 0, again.log)
    }

    /// "Show in the top bar" off hides the indicator only: the toggle stays, and the agent still
    /// sees the focus through the extension.
    func testTurningTheIndicatorOffLeavesTheToggleAndTheFocusService() throws {
        let agent = try startAgent(entries: Self.editor)
        defer { showInTopBarAgain() }
        try activate("Show in the top bar")
        XCTAssertTrue(eventually { self.probe()["visible"] as? Bool == false }, "\(probe())")
        XCTAssertEqual(probe()["toggleVisible"] as? Bool, true)
        try shell.openWindow(appID: "steditor")
        XCTAssertTrue(eventually { (try? agent.status().focused) == AppID("steditor") }, "focus still reaches the agent: \(agent.log)")
        XCTAssertEqual(probe()["visible"] as? Bool, false, "and the indicator stays off")

        try activate("Show in the top bar")
        XCTAssertTrue(eventually { self.probe()["visible"] as? Bool == true }, "\(probe())")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// "Open report" writes today's page with `screentime report today --html` and gives it to
    /// the desktop's default browser (the harness's stand-in records the link).
    func testOpenReportOpensTodaysPageInTheDefaultBrowser() throws {
        let agent = try startAgent()
        try? FileManager.default.removeItem(at: shell.openedLinks)
        try activate("Open report")
        var opened = ""
        XCTAssertTrue(eventually(10) {
            opened = (try? String(contentsOf: self.shell.openedLinks, encoding: .utf8)) ?? ""
            return !opened.isEmpty
        }, "a page opened: \(menuLabels())")
        let page = URL(string: opened.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(page?.lastPathComponent, "report-today.html", opened)
        let html = try String(contentsOfFile: page?.path ?? "", encoding: .utf8)
        XCTAssertTrue(html.contains("<html"), String(html.prefix(200)))
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// The top bar as drawn, with the harness's fonts: the indicator's icon and text are there,
    /// the mode's icon changes with the mode, and the same state draws the same pixels again.
    func testTheTopBarDrawsTheModesIconAndTheTime() throws {
        let agent = try startAgent()
        defer { showInTopBarAgain() }
        XCTAssertTrue(eventually { self.icon == "screentime-standard-symbolic.svg" && self.text == "0 min" }, "\(probe())")
        let standard = try topBar()
        try activate("Show in the top bar")
        XCTAssertTrue(eventually { self.probe()["visible"] as? Bool == false })
        let hidden = try topBar()
        try activate("Show in the top bar")
        XCTAssertTrue(eventually { self.probe()["visible"] as? Bool == true })
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { self.icon == "screentime-productivity-symbolic.svg" }, "\(probe())")
        let productivity = try topBar()
        XCTAssertEqual(try agent.cli(["mode", "auto"]).status, 0)
        XCTAssertTrue(eventually { self.icon == "screentime-standard-symbolic.svg" }, "\(probe())")
        let standardAgain = try topBar()

        let drawn = Self.differing(standard, hidden)
        print("top bar: pixels drawn by the indicator \(drawn), changed by the icon \(Self.differing(productivity, standard)), between two draws of one state \(Self.differing(standardAgain, standard))")
        XCTAssertGreaterThan(drawn, 60, "the icon and “0 min” are drawn in the top bar")
        let iconChange = Self.differing(productivity, standard)
        XCTAssertGreaterThan(iconChange, 15, "Productivity's icon is not Standard's")
        XCTAssertLessThan(iconChange, drawn, "only the icon changed, not the text")
        XCTAssertLessThanOrEqual(Self.differing(standardAgain, standard), 4, "the same state, the same pixels")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// The right part of the top bar, where the system indicators are, once it stopped changing
    /// (the clock in the middle is left out).
    func topBar() throws -> PNGImage {
        try shell.settledScreenshot(rows: Self.topBarRows)
    }

    static let topBarRows = 0..<28

    static func differing(_ a: PNGImage, _ b: PNGImage) -> Int {
        var count = 0
        for y in topBarRows {
            for x in (a.width * 3 / 4)..<a.width {
                let (p, q) = (a.color(x: x, y: y), b.color(x: x, y: y))
                let distance = abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
                if distance > 48 { count += 1 }
            }
        }
        return count
    }

    /// The indicator polls nothing: on a quiet bus it asks the agent nothing, and after a change
    /// it asks once per StatusChanged signal at most (the bus as a monitor sees it).
    func testTheIndicatorAsksTheAgentOnlyAfterItsSignal() throws {
        let agent = try startAgent()
        let monitor = try BusMonitor(address: shell.busAddress, rules: [
            "type='method_call',interface='org.screentime.Agent1',member='Status'",
            "type='signal',interface='org.screentime.Agent1',member='StatusChanged'",
        ])
        // The shell's own connection owns org.screentime.Shell and makes the indicator's calls.
        let bus = try BusConnection(address: shell.busAddress)
        defer { bus.close() }
        let shellConnection = try bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                           method: "GetNameOwner", arguments: [.string(GnomeShellHarness.shellBusName)]).first?.stringValue
        XCTAssertNotNil(shellConnection)
        func count(_ member: String) throws -> Int {
            try monitor.drain()
            return monitor.messages.filter { $0.member == member && (member != "Status" || $0.sender == shellConnection) }.count
        }
        usleep(500_000)
        let (calls, signals) = (try count("Status"), try count("StatusChanged"))
        usleep(5_000_000)
        XCTAssertEqual(try count("StatusChanged"), signals, "a quiet agent signals nothing")
        XCTAssertEqual(try count("Status"), calls, "and the indicator asks nothing meanwhile")

        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { self.icon == "screentime-productivity-symbolic.svg" }, "\(probe())")
        usleep(500_000)
        let newCalls = try count("Status") - calls
        let newSignals = try count("StatusChanged") - signals
        XCTAssertGreaterThanOrEqual(newCalls, 1)
        XCTAssertLessThanOrEqual(newCalls, newSignals, "one Status() per signal at most")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// While the focused app is counted the top bar's time moves on with the shell's minute
    /// clock, though the agent signals nothing and the indicator asks nothing.
    func testTheTimeMovesOnWithTheShellsClockWithoutAskingTheAgent() throws {
        let agent = try startAgent(entries: Self.editor)
        try shell.openWindow(appID: "steditor")
        try shell.resetIdletime()
        XCTAssertTrue(eventually { (try? agent.status()).map { $0.active && $0.focused == AppID("steditor") } == true }, agent.log)
        XCTAssertTrue(eventually { self.text == "0 min" }, "\(probe())")
        let monitor = try BusMonitor(address: shell.busAddress, rules: [
            "type='signal',interface='org.screentime.Agent1',member='StatusChanged'",
        ])
        // The signals of the window's arrival and the input, then quiet.
        usleep(2_000_000)
        try monitor.drain()
        let settled = monitor.messages.count
        let started = Date()
        // A minute counted, then the next tick of the shell's minute clock: two minutes at most.
        XCTAssertTrue(eventually(130) { self.text == "1 min" }, "\(probe())")
        try monitor.drain()
        print("the top bar's minute after \(Int(Date().timeIntervalSince(started))) s; signals meanwhile: \(monitor.messages.count - settled)")
        XCTAssertEqual(monitor.messages.count, settled, "the agent signalled nothing meanwhile: the clock moved the time on")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// From SetMode's reply to the top bar's new icon, on the shell's monotonic clock (the
    /// figure for the closing note); the median of several switches.
    func testTheIndicatorFollowsAModeChangeWithinASecond() throws {
        let agent = try startAgent()
        let bus = try BusConnection(address: shell.busAddress)
        defer { bus.close() }
        var latencies: [Double] = []
        for run in 0..<9 {
            let target = run % 2 == 0 ? "productivity" : "standard"
            let before = (probe()["updatedAt"] as? NSNumber)?.int64Value ?? 0
            _ = try bus.call(destination: AgentInterface.busName, path: AgentInterface.objectPath, interface: AgentInterface.interface,
                             method: "SetMode", arguments: [.string(target)])
            let returned = Self.monotonicMicroseconds()
            XCTAssertTrue(eventually { self.icon == "screentime-\(target)-symbolic.svg" }, "\(probe())")
            let updated = (probe()["updatedAt"] as? NSNumber)?.int64Value ?? 0
            XCTAssertGreaterThan(updated, before)
            latencies.append(Double(updated - returned) / 1000)
        }
        let median = latencies.sorted()[latencies.count / 2]
        print("indicator latency from SetMode's reply, ms: median \(String(format: "%.1f", median)), all \(latencies.map { String(format: "%.1f", $0) })")
        XCTAssertLessThan(median, 1000)
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
