import Foundation
import TestSupport

// Benchmark (issue: the agent on X11): on a private Xvfb + openbox + dbus + dunst, three windows
// take focus in turn every 0.5 s for 60 s; one of them belongs to an app over its limit.
// Prints the latency from that app's activation to its minimize (WM_STATE Iconic), and the
// agent's CPU seconds and steady RSS. Run: swift run -c release screentime-bench [seconds]

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

/// User and system CPU seconds of a process.
func cpuSeconds(_ pid: Int32) -> (user: Double, system: Double) {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    // After the command: utime and stime are fields 14 and 15 of proc(5), 12th and 13th here.
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (Double(fields[11])! / tick, Double(fields[12])! / tick)
}

func rssMegabytes(_ pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Double(line.split(separator: " ")[1]) ?? 0) / 1024
}

/// Time on a CPU in seconds, to the nanosecond (/proc/PID/schedstat), where utime/stime count 10 ms ticks.
func cpuTime(_ pid: Int32) -> Double {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? "0"
    return (Double(text.split(separator: " ").first ?? "0") ?? 0) / 1e9
}

let pid = agent.process.processIdentifier
let cpuBefore = cpuSeconds(pid)
let onCPUBefore = cpuTime(pid)
var latencies: [Double] = []
let end = Date().addingTimeInterval(seconds)
var turn = 0
while Date() < end {
    let window = [a, b, disabled][turn % 3]
    turn += 1
    let sent = DispatchTime.now()
    windows.activate(window)
    if window == disabled {
        // The window manager maps it back (Normal), then the agent minimizes it (Iconic).
        if waitClosely(timeout: 0.2, { windows.wmState(disabled) == 1 }),
           waitClosely(timeout: 0.25, { windows.wmState(disabled) == 3 }) {
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6)
        }
    }
    let next = sent.uptimeNanoseconds + 500_000_000
    let now = DispatchTime.now().uptimeNanoseconds
    if next > now { usleep(useconds_t((next - now) / 1000)) }
}
let onCPU = cpuTime(pid) - onCPUBefore
let cpuAfter = cpuSeconds(pid)
let (user, system) = (cpuAfter.user - cpuBefore.user, cpuAfter.system - cpuBefore.system)
let rss = rssMegabytes(pid)
agent.stop()

latencies.sort()
func percentile(_ p: Double) -> Double { latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
print("focus switches: \(turn) in \(Int(seconds)) s; disabled-app activations measured: \(latencies.count) of \(turn / 3)")
print(String(format: "activation -> minimize latency: median %.1f ms, p90 %.1f ms, max %.1f ms", percentile(0.5), percentile(0.9), latencies.last ?? .nan))
print(String(format: "agent CPU: %.3f s over %.0f s (%.3f s per 60 s; ticks: user %.2f s, system %.2f s)",
             onCPU, seconds, onCPU * 60 / seconds, user, system))
print(String(format: "agent RSS: %.1f MB", rss))
