import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Debian's `firefox-esr` as a real window on the harness's desktop with the project's extension
/// (the same source as Chromium's), the built native host, the real agent, and local pages served
/// from 127.0.0.1 under the sites' names. The user switches tabs by clicking them.
final class FirefoxExtensionTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!
    var server: LocalHTTPServer!
    static let extensionID = "screentime@screentime.invalid"

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
        // Magenta pages: the card's dark backdrop over them is seen on the screen.
        server = try LocalHTTPServer(.page("<!doctype html><html><head><title>A page</title></head><body style=\"background:#ff00ff\"><h1>A page</h1></body></html>"))
    }

    override func tearDown() { server?.stop() }

    func focused(_ agent: AgentProcess) -> AppID? {
        guard let json = try? agent.call(AgentInterface.Method.status).first?.stringValue else { return nil }
        return try? StatusFormat.decode(json).focused
    }

    /// The share of the screen that is the pages' magenta.
    func magentaShare() throws -> Double {
        try share { red, green, blue in red > 230 && green < 30 && blue > 230 }
    }

    /// The share of the screen that is the card's backdrop (rgba(20, 20, 24, 0.86)) over magenta:
    /// a page left blank is neither.
    func backdropShare() throws -> Double {
        try share { red, green, blue in (40...66).contains(red) && green < 30 && (44...70).contains(blue) }
    }

    /// The share of a strip of the page left of where the card's box comes (a 240 × 400 part of
    /// the 1280 × 800 screen, quick to read: the card's figure is read from it every 20 ms) whose
    /// colour matches.
    func share(of matches: (UInt8, UInt8, UInt8) -> Bool) throws -> Double {
        let pixels = Self.sampledPixels(try windows.screenshot(x: 40, y: 250, width: 240, height: 400))
        return Double(pixels.filter { matches($0.red, $0.green, $0.blue) }.count) / Double(max(pixels.count, 1))
    }

    /// Every seventh pixel of a screenshot, enough for shares of the screen.
    static func sampledPixels(_ image: PNGImage) -> [(red: UInt8, green: UInt8, blue: UInt8)] {
        stride(from: 0, to: image.pixels.count, by: 4 * 7).map { (image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2]) }
    }

    /// Waits for `condition` of the screen. Firefox 153 on Xvfb at times leaves a tab it switched to
    /// unpainted (its blank #f9f9fb) until the next input, which a user's mouse gives and this
    /// desktop has not: so the pointer moves a pixel over the page each half second meanwhile. The
    /// screen is read every 20 ms, so the card's figure is when Firefox showed it.
    func onScreen(_ condition: () -> Bool) -> Bool {
        var nudged = Date(), nudges = 0
        return Wait.poll(timeout: 8) {
            if condition() { return true }
            if Date().timeIntervalSince(nudged) > 0.5 {
                nudges += 1
                _ = try? desk.run("xdotool", ["mousemove", String(640 + nudges % 2), "500"])
                nudged = Date()
            }
            return false
        }
    }

    /// The screen's commonest colours, for a failure's message: the card's backdrop over magenta,
    /// a blank page and the browser's own page look different there.
    func screenColours() -> String {
        guard let image = try? windows.screenshot() else { return "no screenshot" }
        var counts: [String: Int] = [:]
        for pixel in Self.sampledPixels(image) { counts[String(format: "#%02x%02x%02x", pixel.red, pixel.green, pixel.blue), default: 0] += 1 }
        // _NET_CLIENT_LIST_STACKING(WINDOW): window id # 0x..., 0x...
        let stacking = ((try? desk.run("xprop", ["-root", "_NET_CLIENT_LIST_STACKING"])) ?? "").split(separator: "#").last ?? ""
        let windows = stacking.split(separator: ",").map { id in
            let id = id.trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(id) \(((try? desk.run("xdotool", ["getwindowname", id])) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        return counts.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + "; windows, bottom to top: " + windows.joined(separator: " | ")
    }

    /// Clicks the tab header (Firefox's window fills the harness's screen; tabs are 225 px wide
    /// from x = 47, on the row at y = 41).
    func click(tab: Int) throws {
        try desk.run("xdotool", ["mousemove", String(150 + 225 * tab), "41", "click", "1"])
    }

    func testSitesAreCountedAndALimitCoversTheTab() throws {
        let agent = try AgentProcess(environment: try AgentProcess.freshEnvironment(
            on: desk, config: "[general]\nidle-after = 1h\n[groups]\ncontent = example.net\n"), desk: desk)
        let firefox = try FirefoxWindow(environment: agent.environment, home: agent.home.appendingPathComponent("ff-home"),
                                        extensionFolder: ChromiumExtensionTests.extensionFolder, extensionID: Self.extensionID,
                                        host: FakeBrowserPeer.binary,
                                        urls: ["http://www.video.example.net:\(server.port)/", "http://docs.example.org:\(server.port)/"])
        defer { firefox.stop() }
        XCTAssertTrue(eventually(40) { ((try? agent.call(AgentInterface.Method.browsers).first?.stringValue) ?? "").contains("\"name\":\"firefox\"") },
                      "the extension connected: \(firefox.log.suffix(3000)) \(agent.log)")
        var latencies: [Double] = []
        for round in 0..<6 {
            for (tab, site) in [(0, "example.net"), (1, "example.org")] {
                let switched = Date()
                try click(tab: tab)
                XCTAssertTrue(eventually(5) { self.focused(agent) == AppID(site) }, "round \(round): \(site); \(agent.log)")
                latencies.append(Date().timeIntervalSince(switched) * 1000)
            }
        }
        latencies.sort()
        print(String(format: "firefox figures: tab switch (click) to the agent's new focus median %.0f ms, p90 %.0f ms (%d switches)",
                     latencies[latencies.count / 2], latencies[latencies.count * 9 / 10], latencies.count))
        XCTAssertGreaterThan(try agent.usedSeconds("example.org"), 0.1)
        try click(tab: 0)
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.net" })
        XCTAssertTrue(onScreen { (try? self.magentaShare()) ?? 0 > 0.2 }, "the page is on screen")
        let limited = Date()
        XCTAssertEqual(try agent.call(AgentInterface.Method.setLimit, [.string("example.net"), .uint64(1)]), [.strings([])], "a new limit holds at once")
        XCTAssertTrue(onScreen { (try? self.magentaShare()) ?? 1 < 0.05 && (try? self.backdropShare()) ?? 0 > 0.2 },
                      "the card covers the page (colours \(screenColours())): \(agent.log)")
        print(String(format: "firefox figures: limit to the in-tab card on screen %.0f ms (screenshots polled)", Date().timeIntervalSince(limited) * 1000))
        // The other tab is usable and counted.
        try click(tab: 1)
        XCTAssertTrue(eventually(5) { self.focused(agent) == "example.org" })
        XCTAssertTrue(onScreen { (try? self.magentaShare()) ?? 0 > 0.2 },
                      "no card on the other tab (\(String(describing: try? self.magentaShare())) of the screen is its page; colours \(screenColours())): \(agent.log) \(firefox.log.suffix(3000))")
    }
}
