import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend

// Benchmark (issue 9, KDE Plasma through org_kde_plasma_window_management): on a private KWin 5.27
// (virtual output) with the agent granted KWin's window list, two weston windows take focus in
// turn every second for N s; one belongs to an app over its limit, which the agent minimizes.
// An observer in this process (a PlasmaWindowsProvider of its own, also granted) sees the
// disabled window become active and then focus leave it when the agent minimized it: that span
// is the latency printed, with the agent's CPU seconds and RSS.
// Run: scripts/bench.sh kwin [seconds]
enum KWinBenchmark {
    static func run(seconds: Double) throws {
        let kwin = try KWinHarness.shared()
        let bin = try kwin.grantedAgentBinaries([DesktopSelection.plasmaWindowsGlobal])
        setenv("SCREENTIME_BIN_DIR", bin.path, 1)
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try kwin.grantWaylandInterfaces([DesktopSelection.plasmaWindowsGlobal], to: me, id: "screentime-bench")

        let environment = try AgentProcess.freshEnvironment(on: kwin, config: "[general]\nidle-after = 1h\n[limits]\nflower = 1s\n")
        try AgentProcess.installDesktopEntry("flower", """
            [Desktop Entry]
            Type=Application
            Name=Flower
            Exec=weston-flower
            StartupWMClass=org.freedesktop.weston.flower
            """, environment: environment)
        let dots = try kwin.openWindow("weston-clickdot")
        let flower = try kwin.openWindow("weston-flower")
        let agent = try AgentProcess(environment: environment, desk: kwin)
        let backends = try agent.status().backends
        guard backends["minimize"]?.hasPrefix("KDE plasma window management") == true else {
            fatalError("the agent does not minimize through KWin's window list: \(backends)")
        }

        var granted: PlasmaWindowsProvider?
        for _ in 0..<50 where granted == nil {
            granted = try? PlasmaWindowsProvider(environment: kwin.environment)
            if granted == nil { usleep(100_000) }
        }
        guard let observer = granted else { fatalError("KWin did not grant its window list to the benchmark") }
        var activeSince: UInt64?
        var activations = 0
        var latencies: [Double] = []
        observer.onFocus = { event in
            guard case .focused(let facts) = event else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            if facts?.pid == flower.processIdentifier {
                activeSince = now
                activations += 1
            } else if let since = activeSince {
                latencies.append(Double(now - since) / 1e6)
                activeSince = nil
            }
        }

        /// Activates the window as a click would, from another thread: KWin's scripting answers slowly,
        /// and the observer must keep reading meanwhile or the activation and the minimize would reach
        /// it as one change.
        func activate(_ window: Process) {
            let pid = window.processIdentifier
            DispatchQueue.global().async { try? kwin.activate(pid: pid) }
        }

        /// Runs the observer as the agent's loop would, until `deadline`.
        func observe(until deadline: DispatchTime) throws {
            while DispatchTime.now() < deadline {
                let left = Int32((deadline.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds) / 1_000_000)
                var entry = pollfd(fd: observer.pollDescriptor, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, max(left, 1)) > 0 { try observer.handleReadable() }
            }
        }

        // Use up the limit first: the first minimize waits for it.
        activate(dots)
        try observe(until: DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + 500_000_000))
        activate(flower)
        try observe(until: DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + 3_000_000_000))
        guard !latencies.isEmpty else { fatalError("the agent did not minimize the app over its limit") }
        latencies = []
        activations = 0

        let pid = agent.process.processIdentifier
        let onCPUBefore = ProcessMeasures.cpuTime(pid)
        let end = Date().addingTimeInterval(seconds)
        var turn = 0
        while Date() < end {
            let window = [dots, flower][turn % 2]
            turn += 1
            let sent = DispatchTime.now()
            activate(window)
            try observe(until: DispatchTime(uptimeNanoseconds: sent.uptimeNanoseconds + 1_000_000_000))
        }
        let onCPU = ProcessMeasures.cpuTime(pid) - onCPUBefore
        let rss = ProcessMeasures.rssMegabytes(pid)
        agent.stop()
        observer.close()
        try? kwin.closeWindow(flower)
        try? kwin.closeWindow(dots)

        let sorted = latencies.sorted()
        // KWin does not raise a minimized window at every scripted request, so the disabled app is
        // active fewer times than it is asked to be; each time it is, the agent minimizes it.
        print("focus switches asked: \(turn) in \(Int(seconds)) s; disabled app active \(activations) times, minimized \(sorted.count) times")
        print(String(format: "agent activation -> minimize (as a KWin client sees it): median %.2f ms, p90 %.2f ms, max %.2f ms",
                     ProcessMeasures.percentile(sorted, 0.5), ProcessMeasures.percentile(sorted, 0.9), sorted.last ?? .nan))
        print(String(format: "agent CPU: %.3f s over %.0f s (%.3f s per 60 s)", onCPU, seconds, onCPU * 60 / seconds))
        print(String(format: "agent RSS: %.1f MB", rss))
    }
}
