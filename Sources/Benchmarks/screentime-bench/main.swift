import Foundation
import Harnesses

// Benchmark of the agent on X11, as installed (release, static, cards on): on a private Xvfb +
// openbox + dbus + dunst, beside the floor (`screentime-floor`, a bare Xlib watcher that
// iconifies one class). First a limited app is reopened `reopens` times (20): the agent minimizes
// it and shows its card, and the floor's window is reopened as often; the latency is from the
// activation to WM_STATE Iconic. Then three unlimited windows take focus in turn at 2 Hz for
// `seconds` (60): the CPU time of both. Prints both, their ratios beside the targets, and the
// agent's RSS. Last, a property of the root window changes 120 times at 4 Hz, as a window manager's
// restacking or a panel's clock does all day: what each change the agent ignores costs both (the
// agent's usage writes in those 30 s included).
// Run: scripts/bench.sh [x11|sway|gnome|kwin|card] [seconds] (the other desktops: SwayBench.swift,
// GnomeShellBenchmark.swift, KWinBenchmark.swift; the restriction card: CardBench.swift; the GNOME and
// Plasma widgets over an hour: WidgetBench.swift).

let desktopArgument = CommandLine.arguments.dropFirst().first
let others: [String: (Double) throws -> Void] = ["sway": runSwayBench, "gnome": GnomeShellBenchmark.run, "kwin": KWinBenchmark.run,
                                                  "card": CardBench.run, "widgets": WidgetBench.run]
if let desktopArgument, let run = others[desktopArgument] {
    // Seconds on a desktop; for the card, how many cards.
    let given = CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) : nil
    try run(given ?? ["card": 20, "widgets": 3600][desktopArgument] ?? 60)
    exit(0)
}
let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 60 : 60
let reopens = 20
let desk = try DesktopHarness.shared()
let config = """
    [general]
    idle-after = 1h
    [limits]
    disabled = 1s
    """
let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config, cards: true, flushSeconds: nil), desk: desk)
let windows = try TestWindowClient(display: desk.display)
let unlimited = try ["Alpha", "Beta", "Gamma"].map { try windows.openWindow(class: $0, title: $0.lowercased()) }
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
// Use up the disabled app's limit first; its first card is the card program's first start.
windows.activate(disabled)
guard windows.waitUntil(timeout: 5, { windows.wmState(disabled) == 3 }) else { fatalError("the agent did not disable the app") }
guard windows.waitUntil(timeout: 5, { !CardBench.cards(windows).isEmpty }) else { fatalError("no card appeared; log: \(agent.log)") }

/// `SCREENTIME_BENCH_HOOK`, when set, is run as `HOOK started|switching|ending PID` once the agent has
/// shown its first card, before the focus switching and before it stops: scripts/generate-hot-code-order.sh counts the code
/// the loop runs in between with callgrind. The run waits for the hook, and also for anything it
/// leaves running with the descriptors it inherited: a hook that starts a measurement in the
/// background closes them first (in bash, `exec 3>&-` and so on for each in /proc/$$/fd).
@MainActor
func runHook(_ moment: String) throws {
    guard let hook = ProcessInfo.processInfo.environment["SCREENTIME_BENCH_HOOK"] else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: hook)
    process.arguments = [moment, String(agent.process.processIdentifier)]
    try process.run()
    process.waitUntilExit()
}
try runHook("started")

/// Polls every 0.2 ms (one X round trip each), for sub-millisecond resolution.
func waitClosely(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        usleep(200)
    }
    return condition()
}

/// Activates `window` and waits until the window manager mapped it back and then someone
/// minimized it: milliseconds from the activation, or nil when either did not happen.
@MainActor
func reopenLatency(_ window: TestWindow) -> Double? {
    let sent = DispatchTime.now()
    windows.activate(window)
    guard waitClosely(timeout: 0.5, { windows.wmState(window) == 1 }),
          waitClosely(timeout: 1, { windows.wmState(window) == 3 }) else { return nil }
    return Double(DispatchTime.now().uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6
}

/// Sleeps until `start` + `offset` seconds.
func sleep(until start: DispatchTime, plus offset: Double) {
    let next = start.uptimeNanoseconds + UInt64(offset * 1e9)
    let now = DispatchTime.now().uptimeNanoseconds
    if next > now { usleep(useconds_t((next - now) / 1000)) }
}

var agentLatencies: [Double] = []
var floorLatencies: [Double] = []
for _ in 0..<reopens {
    let start = DispatchTime.now()
    if let latency = reopenLatency(disabled) { agentLatencies.append(latency) }
    sleep(until: start, plus: 0.75)
    if let latency = reopenLatency(floorWindow) { floorLatencies.append(latency) }
    sleep(until: start, plus: 1.5)
}

let pid = agent.process.processIdentifier
try runHook("switching")
let onCPUBefore = ProcessMeasures.cpuTime(pid)
let floorOnCPUBefore = ProcessMeasures.cpuTime(floor.processIdentifier)
let end = Date().addingTimeInterval(seconds)
var turn = 0
while Date() < end {
    let sent = DispatchTime.now()
    windows.activate(unlimited[turn % unlimited.count])
    turn += 1
    sleep(until: sent, plus: 0.5)
}
let onCPU = ProcessMeasures.cpuTime(pid) - onCPUBefore
let floorOnCPU = ProcessMeasures.cpuTime(floor.processIdentifier) - floorOnCPUBefore
let rss = ProcessMeasures.rssMegabytes(pid)
try runHook("ending")

let ignoredChanges = 120
let agentBeforeIgnored = ProcessMeasures.cpuTime(pid)
let floorBeforeIgnored = ProcessMeasures.cpuTime(floor.processIdentifier)
let ignoredStart = DispatchTime.now()
for change in 0..<ignoredChanges {
    windows.setRootProperty("_SCREENTIME_BENCH_IGNORED", to: UInt(change))
    sleep(until: ignoredStart, plus: Double(change + 1) * 0.25)
}
let agentPerIgnored = (ProcessMeasures.cpuTime(pid) - agentBeforeIgnored) / Double(ignoredChanges)
let floorPerIgnored = (ProcessMeasures.cpuTime(floor.processIdentifier) - floorBeforeIgnored) / Double(ignoredChanges)
agent.stop()
floor.terminate()
floor.waitUntilExit()

agentLatencies.sort()
floorLatencies.sort()
print("reopens measured: agent \(agentLatencies.count), floor \(floorLatencies.count) of \(reopens) each (cards on); focus switches: \(turn) in \(Int(seconds)) s")
for (name, sorted) in [("agent", agentLatencies), ("floor", floorLatencies)] {
    print(String(format: "%@ reopen -> minimized: median %.2f ms, p90 %.2f ms, max %.2f ms",
                 name, ProcessMeasures.percentile(sorted, 0.5), ProcessMeasures.percentile(sorted, 0.9), sorted.last ?? .nan))
}
print(String(format: "agent CPU: %.3f s per 60 s of switching; floor: %.3f s", onCPU * 60 / seconds, floorOnCPU * 60 / seconds))
print(String(format: "ratios agent/floor: median latency %.2fx (target <= 1.5x), CPU %.2fx (target <= 2x)",
             ProcessMeasures.percentile(agentLatencies, 0.5) / ProcessMeasures.percentile(floorLatencies, 0.5), onCPU / floorOnCPU))
print(String(format: "agent RSS: %.1f MB (target <= 12 MB)", rss))
print(String(format: "per ignored root property change: agent %.1f us, floor %.1f us (%.2fx)",
             agentPerIgnored * 1e6, floorPerIgnored * 1e6, agentPerIgnored / floorPerIgnored))
