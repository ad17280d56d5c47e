import Foundation
import Harnesses

// Benchmark of the restriction card (`screentime-bench card [count]`): on the private Xvfb +
// openbox + dbus + dunst, a window of an app over its limit is brought back `count` times (20 by
// default); each time the agent minimizes it and starts `screentime-card`. Prints the latency
// from the minimize (WM_STATE Iconic) to the card's window being viewable (mapped), median and
// max, and the agent's RSS before any card, after the first and after all (the card is its own
// process: the agent must not grow).
// Run: scripts/bench.sh card [count]
enum CardBench {
    static func run(_ count: Double) throws {
        let desk = try DesktopHarness.shared()
        let config = "[general]\nidle-after = 1h\n[limits]\ncardbench = 1s\n"
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config, cards: true, flushSeconds: nil), desk: desk)
        let windows = try TestWindowClient(display: desk.display)
        let app = try windows.openWindow(class: "CardBench", title: "over its limit")
        let pid = agent.process.processIdentifier
        let rssAtStart = ProcessMeasures.rssMegabytes(pid)
        // Use up the limit, and let the first card (and the card program's first start) go.
        windows.activate(app)
        guard windows.waitUntil(timeout: 5, { windows.wmState(app) == 3 }) else { fatalError("the agent did not disable the app") }
        guard windows.waitUntil(timeout: 5, { !cards(windows).isEmpty }) else { fatalError("no card appeared; log: \(agent.log)") }
        closeCard(desk, windows)
        let rssBefore = ProcessMeasures.rssMegabytes(pid)

        var latencies: [Double] = []
        var missed: [String] = []
        for _ in 0..<Int(count) {
            windows.activate(app)
            var minimized = DispatchTime.now()
            var shown = minimized
            guard waitClosely(timeout: 2, { windows.wmState(app) == 1 }),
                  waitClosely(timeout: 2, { windows.wmState(app) == 3 }) else { missed.append("not minimized again"); continue }
            minimized = DispatchTime.now()
            guard waitClosely(timeout: 3, { cards(windows).contains { windows.isViewable($0) } }) else {
                missed.append("no card within 3 s")
                continue
            }
            shown = DispatchTime.now()
            latencies.append(Double(shown.uptimeNanoseconds - minimized.uptimeNanoseconds) / 1e6)
            closeCard(desk, windows)
        }
        let rssAfter = ProcessMeasures.rssMegabytes(pid)
        agent.stop()
        let sorted = latencies.sorted()
        print("cards measured: \(sorted.count) of \(Int(count))\(missed.isEmpty ? "" : "; missed: " + missed.joined(separator: ", "))")
        print(String(format: "minimize -> card mapped: median %.1f ms, max %.1f ms (target: median <= 300 ms)",
                     ProcessMeasures.percentile(sorted, 0.5), sorted.last ?? .nan))
        print(String(format: "agent RSS: %.1f MB before any card, %.1f MB after the first, %.1f MB after %d more (target <= 15 MB)",
                     rssAtStart, rssBefore, rssAfter, sorted.count))
    }

    static func cards(_ windows: TestWindowClient) -> [TestWindow] { windows.windows(withInstance: "screentime-card") }

    /// Escape on the card (it answers Close and exits); waits until its window is gone.
    static func closeCard(_ desk: DesktopHarness, _ windows: TestWindowClient) {
        _ = try? desk.run("xdotool", ["key", "Escape"])
        _ = windows.waitUntil(timeout: 5) { cards(windows).isEmpty }
    }

    /// Polls every 0.5 ms (one X round trip each).
    static func waitClosely(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if condition() { return true }
            usleep(500)
        }
        return condition()
    }
}
