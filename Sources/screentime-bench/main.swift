import Foundation
import TestSupport

// Benchmark (issue: the agent on X11): on a private Xvfb + openbox + dbus + dunst, four windows
// take focus in turn every 0.5 s for 60 s; one belongs to an app over its limit, which the agent
// minimizes, and one to the class the floor (`screentime-floor`, a bare Xlib watcher run beside
// the agent) iconifies. Prints, for both, the latency from that window's activation to its
// minimize (WM_STATE Iconic) and the CPU seconds, their ratios, and the agent's RSS.
// Run: scripts/bench.sh [x11|sway|gnome|kwin] [seconds] (the other desktops: SwayBench.swift,
// GnomeShellBenchmark.swift, KWinBenchmark.swift; the restriction card: CardBench.swift).

let desktopArgument = CommandLine.arguments.dropFirst().first
let others: [String: (Double) throws -> Void] = ["sway": runSwayBench, "gnome": GnomeShellBenchmark.run, "kwin": KWinBenchmark.run,
                                                  "card": CardBench.run]
if let desktopArgument, let run = others[desktopArgument] {
    // Seconds on a desktop; for the card, how many cards.
    let given = CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) : nil
    try run(given ?? (desktopArgument == "card" ? 20 : 60))
    exit(0)
}
let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 60 : 60
let desk = try DesktopHarness.shared()
let config = """
    [general]
    idle-after = 1h
    [limits]
    disabled = 1s
    """
let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
let windows = try TestWindowClient(display: desk.display)
let a = try windows.openWindow(class: "Alpha", title: "a")
let b = try windows.openWindow(class: "Beta", title: "b")
let disabled = try windows.openWindow(class: "Disabled", title: "d")
let floorWindow = try windows.openWindow(class: "Floor", title: "f")
let floor = Process()
floor.executableURL = AgentProcess.binary.deletingLastPathComponent().appendingPathComponent("screentime-floor")
floor.arguments = ["Floor"]
floor.environment = desk.environment
let floorOutput = Pipe()
floor.standardOutput = floorOutput
try floor.run()
guard floorOutput.fileHandleForReading.availableData.starts(with: Data("ready".utf8)) else { fatalError("the floor did not start") }
// Use up the disabled app's limit first.
windows.activate(disabled)
guard windows.waitUntil(timeout: 5, { windows.wmState(disabled) == 3 }) else { fatalError("the agent did not disable the app") }

/// Polls every 0.2 ms (one X round trip each), for sub-millisecond resolution.
func waitClosely(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        usleep(200)
    }
    return condition()
}

let pid = agent.process.processIdentifier
let cpuBefore = ProcessMeasures.cpuSeconds(pid)
let onCPUBefore = ProcessMeasures.cpuTime(pid)
let floorOnCPUBefore = ProcessMeasures.cpuTime(floor.processIdentifier)
var latencies: [TestWindow: [Double]] = [disabled: [], floorWindow: []]
let end = Date().addingTimeInterval(seconds)
var turn = 0
while Date() < end {
    let window = [a, disabled, b, floorWindow][turn % 4]
    turn += 1
    let sent = DispatchTime.now()
    windows.activate(window)
    if window == disabled || window == floorWindow {
        // The window manager maps it back (Normal), then the agent or the floor minimizes it (Iconic).
        if waitClosely(timeout: 0.2, { windows.wmState(window) == 1 }),
           waitClosely(timeout: 0.25, { windows.wmState(window) == 3 }) {
            latencies[window]!.append(Double(DispatchTime.now().uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6)
        }
    }
    let next = sent.uptimeNanoseconds + 500_000_000
    let now = DispatchTime.now().uptimeNanoseconds
    if next > now { usleep(useconds_t((next - now) / 1000)) }
}
let onCPU = ProcessMeasures.cpuTime(pid) - onCPUBefore
let floorOnCPU = ProcessMeasures.cpuTime(floor.processIdentifier) - floorOnCPUBefore
let cpuAfter = ProcessMeasures.cpuSeconds(pid)
let (user, system) = (cpuAfter.user - cpuBefore.user, cpuAfter.system - cpuBefore.system)
let rss = ProcessMeasures.rssMegabytes(pid)
agent.stop()
floor.terminate()
floor.waitUntilExit()

let agentLatencies = latencies[disabled]!.sorted()
let floorLatencies = latencies[floorWindow]!.sorted()
print("focus switches: \(turn) in \(Int(seconds)) s; minimizes measured: agent \(agentLatencies.count), floor \(floorLatencies.count) of \(turn / 4) each")
for (name, sorted) in [("agent", agentLatencies), ("floor", floorLatencies)] {
    print(String(format: "%@ activation -> minimize: median %.2f ms, p90 %.2f ms, max %.2f ms",
                 name, ProcessMeasures.percentile(sorted, 0.5), ProcessMeasures.percentile(sorted, 0.9), sorted.last ?? .nan))
}
print(String(format: "agent CPU: %.3f s over %.0f s (%.3f s per 60 s; ticks: user %.2f s, system %.2f s)",
             onCPU, seconds, onCPU * 60 / seconds, user, system))
print(String(format: "floor CPU: %.3f s over %.0f s (%.3f s per 60 s)", floorOnCPU, seconds, floorOnCPU * 60 / seconds))
print(String(format: "ratios agent/floor: CPU %.2fx (target <= 2.5x), median latency %.2fx (target <= 2x)",
             onCPU / floorOnCPU, ProcessMeasures.percentile(agentLatencies, 0.5) / ProcessMeasures.percentile(floorLatencies, 0.5)))
print(String(format: "agent RSS: %.1f MB (target <= 15 MB)", rss))
