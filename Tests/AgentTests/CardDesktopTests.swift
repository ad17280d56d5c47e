import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// The restriction card (`screentime-card`) on the real Xvfb + openbox + dbus + dunst desktop:
/// alone with a given document (golden screenshot, keys, a click), then started by the agent.
final class CardDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    static let cardProgram = AgentProcess.binary.deletingLastPathComponent().appendingPathComponent("screentime-card")
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/card.png")

    /// Statistics, a message, two sections and three buttons (the primary first), nothing that
    /// depends on the day: the golden screenshot's card.
    static let document = CardDocument(
        icon: "utilities-terminal", title: "XTerm",
        statistics: CardStatistics(today: 3900, week: zip(["Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon"],
                                                          [1200, 3600, 0, 5400, 2400, 600, 3900]).map { CardDayBar(label: $0, seconds: $1) }),
        message: "You have used XTerm for 1 h 5 min today, as long as you planned. Whether to go on is your choice.",
        sections: [CardSection(title: "Next events", items: ["14:00 Team meeting", "16:30 Dentist"]),
                   CardSection(title: "To do", items: [], note: "Nothing due today")],
        buttons: [CardButton(key: CardChoice.continue, label: "Continue for 1 hour", role: .primary),
                  CardButton(key: CardChoice.bedtime, label: "Go to bed"),
                  CardButton(key: CardChoice.close, label: "Close", role: .close)])

    /// Plays the agent on the bus: owns its name and records each `CardChosen`.
    final class AnswerRecorder {
        let connection: BusConnection
        private(set) var answers: [(card: String, choice: String)] = []

        init(address: String) throws {
            connection = try BusConnection(address: address)
            guard try connection.requestName(AgentInterface.busName) else { throw BusError.disconnected }
            try connection.export(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                  introspection: AgentInterface.introspectionXML) { [weak self] member, arguments in
                if member == AgentInterface.Method.cardChosen {
                    self?.answers.append((arguments[0].stringValue ?? "", arguments[1].stringValue ?? ""))
                }
                return []
            }
        }

        /// The next answer, waited for (bounded) while the bus is served.
        func nextAnswer(timeout: TimeInterval = 5) -> (card: String, choice: String)? {
            _ = eventually(timeout) {
                try? connection.dispatchPending()
                return !answers.isEmpty
            }
            return answers.isEmpty ? nil : answers.removeFirst()
        }

        deinit { try? connection.releaseName(AgentInterface.busName) }
    }

    func startCard(_ document: CardDocument = CardDesktopTests.document, environment extra: [String: String] = [:]) throws -> Process {
        let card = Process()
        card.executableURL = Self.cardProgram
        card.arguments = ["--id", "test-card", "--document", String(decoding: try JSONEncoder().encode(document), as: UTF8.self)]
        card.environment = desk.environment.merging(extra) { $1 }
        card.standardOutput = FileHandle.nullDevice
        try card.run()
        return card
    }

    /// The card's window, once it is on screen and has the keyboard.
    func cardWindow(timeout: TimeInterval = 10) throws -> TestWindow {
        var found: TestWindow?
        _ = eventually(timeout) {
            found = windows.windows(withInstance: "screentime-card").first
            return found.map { windows.isViewable($0) && windows.activeWindow() == $0.xid } ?? false
        }
        return try XCTUnwrap(found, "no window of class screentime-card became active")
    }

    func waitForExit(_ process: Process, timeout: TimeInterval = 5) -> Int32? {
        guard eventually(timeout, { !process.isRunning }) else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    /// The bounding box of the primary (suggested, blue) button: where a user would click. Rows
    /// with a long run of its blue (an icon's blue is in short runs).
    func primaryButton(in shot: PNGImage) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        var box: (x: ClosedRange<Int>, y: ClosedRange<Int>)?
        for y in 0..<shot.height {
            var start = 0
            for x in 0...shot.width {
                let blue = x < shot.width && {
                    let (r, g, b) = shot.color(x: x, y: y)
                    return b > 200 && r < 90 && g > 100 && g < 160
                }()
                if blue { continue }
                if x - start >= 40 {
                    let run = start...(x - 1)
                    box = box.map { (min($0.x.lowerBound, start)...max($0.x.upperBound, x - 1), $0.y.lowerBound...y) } ?? (run, y...y)
                }
                start = x + 1
            }
        }
        return box
    }

    func click(x: Int, y: Int) throws {
        try desk.run("xdotool", ["mousemove", String(x), String(y), "click", "1"])
    }

    // MARK: - The card alone

    /// The card is drawn as the golden screenshot shows it (statistics, sections, buttons; compared
    /// with a tolerance for antialiasing), and Escape answers `close`.
    func testCardMatchesTheGoldenScreenshotAndEscapeAnswersClose() throws {
        let recorder = try AnswerRecorder(address: desk.busAddress)
        let dunst = try DunstControl(desktop: desk)
        try dunst.closeAll()
        XCTAssertTrue(eventually { (try? dunst.displayedCount()) == 0 }, "dunst still shows a notification")
        let card = try startCard()
        _ = try cardWindow()
        // Drawn once the window is mapped; allowed a moment.
        var shot = try windows.screenshot()
        let update = ProcessInfo.processInfo.environment["SCREENTIME_UPDATE_GOLDEN"] != nil
        if update || !FileManager.default.fileExists(atPath: Self.golden.path) {
            // Drawn: the screen holds still for 100 ms.
            try Wait.until("the card's drawing to settle", every: 0.1) {
                let previous = shot
                shot = try windows.screenshot()
                return shot.differingPixels(from: previous) == 0
            }
            try FileManager.default.createDirectory(at: Self.golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try shot.write(to: Self.golden.path)
            XCTFail("wrote \(Self.golden.path): look at it and commit it")
        } else {
            let golden = try PNGImage(contentsOf: Self.golden.path)
            // At most 128 pixels here (a letter changed is about 24, a missing bar or button thousands);
            // antialiasing and hinting moving a level or two are not counted.
            let allowed = golden.width * golden.height / 8000
            var differing = Int.max
            _ = try eventually(3) {
                shot = try windows.screenshot()
                differing = shot.differingPixels(from: golden)
                return differing <= allowed
            }
            if differing > allowed { try? shot.write(to: NSTemporaryDirectory() + "card-actual.png") }
            print("card screenshot: \(differing) pixels differ from the golden one (\(allowed) allowed)")
            XCTAssertLessThanOrEqual(differing, allowed, "the card differs from \(Self.golden.path) (actual: \(NSTemporaryDirectory())card-actual.png)")
        }
        try desk.run("xdotool", ["key", "Escape"])
        let answer = recorder.nextAnswer()
        XCTAssertEqual(answer?.card, "test-card")
        XCTAssertEqual(answer?.choice, CardChoice.close)
        XCTAssertEqual(waitForExit(card), 0)
        XCTAssertTrue(eventually { self.windows.windows(withInstance: "screentime-card").isEmpty }, "the card's window is gone")
    }

    /// A click on a button answers its key; Enter answers the primary button's (it has the focus).
    func testClickAnswersTheButtonsKeyAndEnterThePrimarys() throws {
        let recorder = try AnswerRecorder(address: desk.busAddress)
        let card = try startCard()
        _ = try cardWindow()
        var primary: (x: ClosedRange<Int>, y: ClosedRange<Int>)?
        XCTAssertTrue(try eventually(3) { primary = self.primaryButton(in: try self.windows.screenshot()); return primary != nil },
                      "no primary (blue) button on screen")
        let button = try XCTUnwrap(primary)
        // Button boxes make their buttons equally wide; "Go to bed" is the next one.
        let width = button.x.upperBound - button.x.lowerBound
        try click(x: button.x.upperBound + width / 2 + 12, y: (button.y.lowerBound + button.y.upperBound) / 2)
        XCTAssertEqual(recorder.nextAnswer()?.choice, CardChoice.bedtime)
        XCTAssertEqual(waitForExit(card), 0)

        let second = try startCard()
        _ = try cardWindow()
        try desk.run("xdotool", ["key", "Return"])
        XCTAssertEqual(recorder.nextAnswer()?.choice, CardChoice.continue)
        XCTAssertEqual(waitForExit(second), 0)
    }

    /// A launch button starts its app from the desktop entry (here Debian's xterm entry), then
    /// answers its key.
    func testALaunchButtonStartsItsAppThenAnswers() throws {
        let recorder = try AnswerRecorder(address: desk.busAddress)
        let before = Set(windows.windows(withInstance: "xterm"))
        let launcher = CardDocument(icon: "utilities-terminal", title: "Messages", message: "Your essential apps stay at hand.",
                                    buttons: [CardButton(key: "launch:terminal", label: "Terminal", role: .primary,
                                                         launch: .desktopEntry("debian-xterm")),
                                              CardButton(key: CardChoice.close, label: "Close", role: .close)])
        let card = try startCard(launcher)
        _ = try cardWindow()
        try desk.run("xdotool", ["key", "Return"])
        XCTAssertEqual(recorder.nextAnswer()?.choice, "launch:terminal")
        XCTAssertEqual(waitForExit(card), 0)
        var started: [TestWindow] = []
        XCTAssertTrue(eventually(10) {
            started = self.windows.windows(withInstance: "xterm").filter { !before.contains($0) }
            return !started.isEmpty
        }, "an xterm window appeared")
        for window in started { windows.pid(of: window).map { _ = kill($0, SIGTERM) } }
    }

    /// Readable at 4K and with large text: the card grows with the screen's scale (GDK_SCALE) and
    /// with the user's text size (GDK_DPI_SCALE), as its sizes are GTK's and the text's own.
    func testCardGrowsWithTheScaleAndTheTextSize() throws {
        let recorder = try AnswerRecorder(address: desk.busAddress)
        let small = CardDocument(icon: "utilities-terminal", title: "XTerm", message: "A short card.",
                                 buttons: [CardButton(key: CardChoice.continue, label: "Continue for 1 hour", role: .primary),
                                           CardButton(key: CardChoice.close, label: "Close", role: .close)])
        func primaryWidth(_ environment: [String: String]) throws -> Int {
            let card = try startCard(small, environment: environment)
            _ = try cardWindow()
            var primary: (x: ClosedRange<Int>, y: ClosedRange<Int>)?
            _ = try eventually(3) { primary = self.primaryButton(in: try self.windows.screenshot()); return primary != nil }
            try desk.run("xdotool", ["key", "Escape"])
            XCTAssertEqual(recorder.nextAnswer()?.choice, CardChoice.close)
            XCTAssertEqual(waitForExit(card), 0)
            let button = try XCTUnwrap(primary, "no primary button with \(environment)")
            return button.x.count
        }
        let plain = Double(try primaryWidth([:]))
        let scaled = Double(try primaryWidth(["GDK_SCALE": "2"]))
        let largeText = Double(try primaryWidth(["GDK_DPI_SCALE": "2"]))
        XCTAssertEqual(scaled / plain, 2, accuracy: 0.15, "GDK_SCALE=2: \(scaled) px wide, \(plain) at 1")
        XCTAssertGreaterThan(largeText / plain, 1.5, "twice the text size: \(largeText) px wide, \(plain) at 1")
    }

    /// `--print` writes the card as text without a display, `--json` as its document; a wrong option is status 2 with the usage.
    func testPrintAndUsage() throws {
        let text = try HarnessProcesses.process(Self.cardProgram.path, ["--print", "--document", String(decoding: try JSONEncoder().encode(Self.document), as: UTF8.self)],
                                                environment: [:]).checkedOutput("screentime-card --print")
        XCTAssertEqual(text, CardText.render(Self.document) + "\n")
        // --json: the document itself, for the in-tab card.
        let json = try HarnessProcesses.process(Self.cardProgram.path, ["--json", "--document", String(decoding: try JSONEncoder().encode(Self.document), as: UTF8.self)],
                                                environment: [:]).checkedOutput("screentime-card --json")
        XCTAssertEqual(try JSONDecoder().decode(CardDocument.self, from: Data(json.utf8)), Self.document)
        let bad = Process()
        bad.executableURL = Self.cardProgram
        bad.arguments = ["--request", "{"]
        bad.standardError = FileHandle.nullDevice
        try bad.run()
        bad.waitUntilExit()
        XCTAssertEqual(bad.terminationStatus, 2, "a request that is not JSON")
    }

    /// Without a display the card says so with status 3 (the agent then shows the notification).
    /// Placed by a window that is gone (or never was), the card still shows, on the pointer's
    /// monitor: the X error is trapped.
    func testAWindowThatIsGoneStillGivesACard() throws {
        let card = Process()
        card.executableURL = Self.cardProgram
        card.arguments = ["--id", "test-card", "--document", String(decoding: try JSONEncoder().encode(Self.document), as: UTF8.self),
                          "--x11-window", "12345"]
        card.environment = desk.environment
        card.standardOutput = FileHandle.nullDevice
        try card.run()
        defer { card.terminate() }
        _ = try cardWindow()
        XCTAssertTrue(card.isRunning, "the card survives the missing window")
    }

    func testNoDisplayExitsWithStatusThree() throws {
        let card = try startCard(environment: ["DISPLAY": ":99999", "WAYLAND_DISPLAY": ""])
        XCTAssertEqual(waitForExit(card), 3)
    }

    // MARK: - Started by the agent

    static let xtermLimit = """
        [general]
        idle-after = 1h
        continue-for = 1h
        [limits]
        debian-xterm = 2s
        """

    /// An agent with cards, and xterm brought over its 2 s limit: minimized, the card over it.
    /// The xterm is returned to be kept running while the test lasts.
    func agentWithCardOverXterm() throws -> (agent: AgentProcess, xterm: RealApp, window: TestWindow) {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: Self.xtermLimit, cards: true), desk: desk)
        let xterm = try RealApp("xterm", ["-e", "sleep", "60"], on: desk)
        let window = try xterm.window(in: windows)
        windows.activate(window)
        XCTAssertTrue(eventually(6) { self.windows.wmState(window) == 3 }, "xterm minimized at its limit; log: \(agent.log)")
        _ = try cardWindow()
        return (agent, xterm, window)
    }

    /// xterm over its limit is minimized and the card appears over it; "Continue" clicked on the
    /// card reaches the agent, and xterm may stay.
    func testAgentShowsTheCardAndItsContinueLetsTheAppStay() throws {
        let (agent, xterm, window) = try agentWithCardOverXterm()
        defer { xterm.end() }
        var primary: (x: ClosedRange<Int>, y: ClosedRange<Int>)?
        XCTAssertTrue(try eventually(3) { primary = self.primaryButton(in: try self.windows.screenshot()); return primary != nil },
                      "no Continue button on the card")
        let button = try XCTUnwrap(primary)
        try click(x: (button.x.lowerBound + button.x.upperBound) / 2, y: (button.y.lowerBound + button.y.upperBound) / 2)
        XCTAssertTrue(eventually { (try? agent.status().apps.first { $0.id == "debian-xterm" }?.continues) == 1 },
                      "the agent granted the continue; log: \(agent.log)")
        XCTAssertTrue(eventually { self.windows.windows(withInstance: "screentime-card").isEmpty }, "the card is gone")
        windows.activate(window)
        XCTAssertTrue(eventually { self.windows.wmState(window) == 1 })
        usleep(1_500_000) // the thing checked: past its 1 s limit, the continued app is left alone
        XCTAssertEqual(windows.wmState(window), 1, "xterm stays usable; log: \(agent.log)")
        XCTAssertTrue(agent.log.contains(": continue"), agent.log)
        XCTAssertEqual(agent.stop(), 0)
    }

    /// Escape closes the card and xterm stays minimized: nothing granted.
    func testAgentCardEscapeLeavesTheAppMinimized() throws {
        let (agent, xterm, window) = try agentWithCardOverXterm()
        defer { xterm.end() }
        try desk.run("xdotool", ["key", "Escape"])
        XCTAssertTrue(eventually { self.windows.windows(withInstance: "screentime-card").isEmpty }, "the card is gone")
        XCTAssertTrue(eventually { agent.log.contains(": close") }, agent.log)
        usleep(1_000_000) // the thing checked: nothing brings xterm back meanwhile
        XCTAssertEqual(windows.wmState(window), 3, "xterm stays minimized")
        XCTAssertEqual(try agent.status().apps.first { $0.id == "debian-xterm" }?.continues, 0)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertFalse(agent.log.contains("before an answer"), "no card failed: \(agent.log)")
    }

    /// Continued some other way (the CLI here), the app's card goes: it asks nothing any more.
    func testContinueFromTheCLIClosesTheCard() throws {
        let (agent, xterm, _) = try agentWithCardOverXterm()
        defer { xterm.end() }
        let continued = try agent.cli(["continue", "debian-xterm"])
        XCTAssertEqual(continued.status, 0, continued.err)
        XCTAssertTrue(eventually { self.windows.windows(withInstance: "screentime-card").isEmpty }, "the card closed; log: \(agent.log)")
        XCTAssertFalse(agent.log.contains("before an answer"), "a card closed by the agent is no failure: \(agent.log)")
        XCTAssertEqual(agent.stop(), 0)
    }

    /// `doctor` says where cards can be shown, or why not and that notifications stand in.
    func testDoctorSaysWhereCardsCanBeShown() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: nil, cards: true)
        let shown = try AgentProcess.run(["doctor"], environment: environment).out
        XCTAssertTrue(shown.contains("ok   card") && shown.contains("X11: a full-screen window kept above"), shown)
        var off = environment
        off["SCREENTIME_CARD"] = "off"
        XCTAssertTrue(try AgentProcess.run(["doctor"], environment: off).out.contains("SCREENTIME_CARD=off: notifications stand in"))
        var headless = environment
        headless["DISPLAY"] = nil
        headless["WAYLAND_DISPLAY"] = nil
        let without = try AgentProcess.run(["doctor"], environment: headless).out
        XCTAssertTrue(without.contains("warn card") && without.contains("no display in the environment"), without)
    }

    /// A card that ends without an answer (killed here; a crash, a display gone) hands its
    /// notification back: the way through stays offered.
    func testACardEndingUnansweredLeavesTheNotification() throws {
        let monitor = try BusMonitor(address: desk.busAddress)
        let (agent, xterm, _) = try agentWithCardOverXterm()
        defer { xterm.end() }
        let card = try XCTUnwrap(windows.windows(withInstance: "screentime-card").first.flatMap { windows.pid(of: $0) })
        kill(card, SIGTERM)
        let notice = try monitor.waitForNotify { $0.summary.contains("XTerm") && $0.actions.contains("continue") }
        XCTAssertTrue(notice.actions.contains("continue"))
        XCTAssertTrue(agent.log.contains("exited with status 143 before an answer"), agent.log)
        XCTAssertEqual(agent.stop(), 0)
    }

    /// The card on screen when the agent exits goes with it. It was told the disabled window, so
    /// it covers the monitor the app was on.
    func testTheCardEndsWithTheAgent() throws {
        let (agent, xterm, window) = try agentWithCardOverXterm()
        defer { xterm.end() }
        let arguments = agent.cards().first?.arguments
        let placement = try XCTUnwrap(arguments?.firstIndex(of: "--x11-window")).advanced(by: 1)
        XCTAssertEqual(arguments?[placement], String(window.xid), "the card is placed by xterm's window")
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertTrue(eventually { self.windows.windows(withInstance: "screentime-card").isEmpty }, "the card ended with the agent")
    }

    /// Without a `screentime-card` beside the agent (copied elsewhere alone), the limit's
    /// notification appears in dunst as before, and the log says why once.
    func testWithoutTheCardProgramTheNotificationStandsIn() throws {
        let folder = desk.root.appendingPathComponent("bin-without-card-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for program in ["screentime", "screentime-agent"] {
            try FileManager.default.copyItem(at: AgentProcess.binary.deletingLastPathComponent().appendingPathComponent(program),
                                             to: folder.appendingPathComponent(program))
        }
        setenv("SCREENTIME_BIN_DIR", folder.path, 1)
        defer { unsetenv("SCREENTIME_BIN_DIR") }
        let monitor = try BusMonitor(address: desk.busAddress)
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: Self.xtermLimit, cards: true), desk: desk)
        let xterm = try RealApp("xterm", ["-e", "sleep", "60"], on: desk)
        let window = try xterm.window(in: windows)
        windows.activate(window)
        XCTAssertTrue(eventually(6) { self.windows.wmState(window) == 3 })
        let notice = try monitor.waitForNotify { $0.summary.contains("XTerm") && $0.actions.contains("continue") }
        XCTAssertTrue(notice.actions.contains("continue"), "the notification offers the way through")
        XCTAssertTrue(windows.windows(withInstance: "screentime-card").isEmpty)
        XCTAssertEqual(agent.stop(), 0)
        XCTAssertEqual(agent.log.components(separatedBy: "no screentime-card beside the agent").count - 1, 1, agent.log)
    }
}
