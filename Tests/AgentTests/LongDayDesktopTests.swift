import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// A long day of windows on X11, scaled down from the tester's (500 xterms, 20,000 focus switches):
/// windows arrive and leave in bursts of 20, focus moves among them thousands of times, and no turn
/// of the agent's loop takes long, nor does its memory keep growing.
final class LongDayDesktopTests: XCTestCase {
    var desk: DesktopHarness!
    var windows: TestWindowClient!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        windows = try TestWindowClient(display: desk.display)
    }

    static let bursts = 25
    static let burstSize = 20
    static let switchesPerBurst = 160
    /// Bursts before memory is measured: the allocator's first growth and SQLite's page cache
    /// filling up to its bound (flat after 200 windows here).
    static let warmUpBursts = 10

    /// The goal is 100 ms, which the release build holds (45-52 ms; `SCREENTIME_BIN_DIR` names it).
    /// The debug build's turns wait as long on openbox's grabs but run slower between them: 41-126 ms
    /// on a loaded machine of two cores (75-198 ms before a drain did one round per turn).
    static let longestTurnBound: Double = ProcessInfo.processInfo.environment["SCREENTIME_BIN_DIR"] == nil ? 150 : 100

    func longestLoopTurn(_ agent: AgentProcess) throws -> Double {
        let status = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        return try XCTUnwrap(status.diagnostics?["longestLoopTurnMs"], "the status has no longest loop turn")
    }

    /// Activates `window` and waits (bounded, polling every millisecond) until the window manager
    /// names it active.
    func switchFocus(to window: TestWindow) -> Bool {
        windows.activate(window)
        return Wait.poll(timeout: 2, every: 0.001) { windows.activeWindow() == window.xid }
    }

    /// Each burst of 20 is opened at once (openbox manages them one after the other, holding the
    /// server while it does), focus moves 160 times among the 40 windows open, and the burst before
    /// is closed at once. Before a drain of the focus events did one round per turn, the longest
    /// turn of the loop was 75-198 ms (debug build); before SQLite's page cache was bounded, the
    /// agent's anonymous memory grew 0.31-0.37 MB after the warm-up (0.04-0.12 MB since), and on
    /// with every burst.
    func testFiveHundredWindowsInBurstsOfTwentyKeepEveryTurnShortAndMemoryFlat() throws {
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(
            on: desk, config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n"), desk: desk)
        let pid = agent.process.processIdentifier
        let began = Date()
        var random = SplitMix64(seed: 19)
        var previous: [TestWindow] = []
        var warmRSS = 0.0, warmAnonymous = 0.0
        var opened = 0, switches = 0
        for burst in 0..<Self.bursts {
            // Windows of a few apps, each with a local process (this test's) for /proc to tell of.
            let arrived = try windows.openWindows(Self.burstSize, class: { "LongDay\(($0 + burst) % 5)" },
                                                  title: { "window \(opened + $0)" }, pid: getpid())
            opened += arrived.count
            let open = previous + arrived
            for _ in 0..<Self.switchesPerBurst {
                let window = open[Int(random.next() % UInt64(open.count))]
                XCTAssertTrue(switchFocus(to: window), "openbox never activated \(window)")
                switches += 1
            }
            windows.close(previous)
            previous = arrived
            if burst == Self.warmUpBursts - 1 {
                (warmRSS, warmAnonymous) = (ProcessMeasures.rssMegabytes(pid), ProcessMeasures.anonymousMegabytes(pid))
            }
        }
        windows.close(previous)
        XCTAssertTrue(windows.syncWithWindowManager())
        let longest = try longestLoopTurn(agent)
        let (endRSS, endAnonymous) = (ProcessMeasures.rssMegabytes(pid), ProcessMeasures.anonymousMegabytes(pid))
        print("long day: \(opened) windows, \(switches) focus switches in \(String(format: "%.1f", Date().timeIntervalSince(began))) s; "
              + "longest loop turn \(longest) ms; RSS \(String(format: "%.2f", warmRSS)) MB after \(Self.warmUpBursts * Self.burstSize) "
              + "windows, \(String(format: "%.2f", endRSS)) MB at the end (anonymous \(String(format: "%.2f", warmAnonymous)) "
              + "-> \(String(format: "%.2f", endAnonymous)) MB)")
        XCTAssertLessThan(longest, Self.longestTurnBound, "a turn of the loop took \(longest) ms")
        // Code pages the agent gave back at start come back as it runs new paths: the heap and the
        // caches are what must stay flat.
        XCTAssertLessThan(endAnonymous - warmAnonymous, 0.2,
                          "anonymous memory grew from \(warmAnonymous) MB to \(endAnonymous) MB after the warm-up")
        XCTAssertTrue(agent.process.isRunning, "log:\n\(agent.log)")
    }
}
