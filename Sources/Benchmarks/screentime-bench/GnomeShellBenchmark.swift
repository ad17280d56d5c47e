import Foundation
import SessionBus
import Harnesses

// Benchmark on GNOME (`scripts/bench.sh gnome [seconds]`): on a headless
// GNOME Shell 43 with the project's extension, three windows take focus in turn every 0.5 s
// (alpha, the disabled app, beta, the disabled app...), activated through the extension's testing
// interface as a click would. Prints the latency from each activation of the disabled app to its
// minimize (seen as the shell's FocusChanged moving away from it, which Mutter emits inside
// `minimize()`; checked against ListWindows at the end), and the agent's CPU and RSS.
enum GnomeShellBenchmark {
    static func run(seconds: Double) throws {
        let shell = try GnomeShellHarness.shared()
        let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: shell, config: """
            [general]
            idle-after = 1h
            [limits]
            stdisabled = 1s
            """), desk: shell)
        let alpha = try shell.openWindow(appID: "stalpha")
        let beta = try shell.openWindow(appID: "stbeta")
        let disabled = try shell.openWindow(appID: "stdisabled")
        try shell.waitUntil("the agent disabling the app", timeout: 10) { isMinimized(disabled, shell) }

        let watcher = try BusConnection(address: shell.busAddress)
        try watcher.addMatch("type='signal',sender='\(GnomeShellHarness.shellBusName)',interface='org.screentime.Shell',member='FocusChanged'")
        var focusChanges: [(window: UInt64, at: UInt64)] = []
        watcher.onSignal(interface: "org.screentime.Shell", member: "FocusChanged") { message in
            focusChanges.append((message.arguments.first?.uint64Value ?? 0, DispatchTime.now().uptimeNanoseconds))
        }

        let pid = agent.process.processIdentifier
        let onCPUBefore = ProcessMeasures.cpuTime(pid)
        var fromActivation: [Double] = []
        var fromFocus: [Double] = []
        var turn = 0
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let window = [alpha, disabled, beta, disabled][turn % 4]
            turn += 1
            focusChanges.removeAll()
            let sent = DispatchTime.now().uptimeNanoseconds
            try shell.requestActivation(window.id)
            let next = sent + 500_000_000
            while DispatchTime.now().uptimeNanoseconds < next {
                var entry = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
                let left = Int32((next - min(next, DispatchTime.now().uptimeNanoseconds)) / 1_000_000)
                if poll(&entry, 1, max(left, 1)) > 0 { try watcher.dispatchPending() }
            }
            try shell.dispatchAnswers()
            guard window.id == disabled.id,
                  let focused = focusChanges.firstIndex(where: { $0.window == disabled.id }),
                  let away = focusChanges[focused...].first(where: { $0.window != disabled.id }) else { continue }
            fromActivation.append(Double(away.at - sent) / 1e6)
            fromFocus.append(Double(away.at - focusChanges[focused].at) / 1e6)
        }
        let onCPU = ProcessMeasures.cpuTime(pid) - onCPUBefore
        let rss = ProcessMeasures.rssMegabytes(pid)
        let stillMinimized = isMinimized(disabled, shell)
        agent.stop()
        shell.stop()

        print("GNOME Shell 43 headless: focus switches \(turn) in \(Int(seconds)) s; minimizes measured \(fromActivation.count) of \(turn / 2)")
        for (name, samples) in [("activation request -> minimized", fromActivation), ("shell's focus signal -> minimized", fromFocus)] {
            let sorted = samples.sorted()
            print(String(format: "agent %@: median %.2f ms, p90 %.2f ms, max %.2f ms",
                         name, ProcessMeasures.percentile(sorted, 0.5), ProcessMeasures.percentile(sorted, 0.9), sorted.last ?? .nan))
        }
        print(String(format: "agent CPU: %.3f s over %.0f s (%.3f s per 60 s of focus switching at 2 Hz)", onCPU, seconds, onCPU * 60 / seconds))
        print(String(format: "agent RSS: %.1f MB; the disabled window minimized at the end: %@", rss, stillMinimized ? "yes" : "NO"))
    }

    static func isMinimized(_ window: GnomeShellHarness.Window, _ shell: GnomeShellHarness) -> Bool {
        (try? shell.windows().first { $0.id == window.id }?.minimized) == true
    }
}
