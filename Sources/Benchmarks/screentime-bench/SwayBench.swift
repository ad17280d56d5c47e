import Foundation
import I3IPCBackend
import Harnesses
import UnixSocket

// Benchmark on headless sway (`screentime-bench sway`): three foot windows take focus in turn every 0.5 s, the
// disabled app's every other turn, brought back from the scratchpad (`scratchpad show`) as a
// user would; the agent moves it back. Prints the latency from the activation (the command sent)
// to the window being in the scratchpad again (read from the tree over the IPC, ~0.3 ms a read),
// and the agent's CPU time per 60 s.
// Run: scripts/bench.sh sway [seconds]

/// A blocking i3 IPC client of the benchmark's own: commands and trees, read at once.
final class SwayProbe {
    let socket: UnixSocket
    var parser = I3IPCFrameParser()

    init(path: String) throws { socket = try UnixSocket(path: path) }

    func request(_ type: I3IPCMessageType, _ payload: String = "") throws -> [UInt8] {
        let bytes = I3IPCFrame(type, payload).encoded
        var sent = 0
        while sent < bytes.count {
            sent += try socket.writeAvailable(bytes[sent...])
            if sent < bytes.count { try socket.wait(for: .seconds(1), writing: true) }
        }
        while true {
            if let frame = try parser.next() { return frame.payload }
            try socket.wait(for: .seconds(2))
            var chunk: [UInt8] = []
            guard try socket.readAvailable(into: &chunk) else { throw UnixSocketError.closed(path: socket.path) }
            parser.append(chunk)
        }
    }

    func command(_ text: String) throws { _ = try request(.runCommand, text) }

    /// Whether the window is in the scratchpad workspace now.
    func inScratchpad(_ conID: UInt64) throws -> Bool {
        let tree = try JSONSerialization.jsonObject(with: Data(try request(.getTree))) as? [String: Any] ?? [:]
        func find(_ node: [String: Any], scratch: Bool) -> Bool? {
            let scratch = scratch || (node["name"] as? String == "__i3_scratch")
            if (node["id"] as? Int).map(UInt64.init) == conID { return scratch }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { if let found = find(child, scratch: scratch) { return found } }
            }
            return nil
        }
        return find(tree, scratch: false) ?? false
    }
}

func runSwayBench(seconds: Double) throws {
    let sway = try SwayHarness.shared()
    let agent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: sway, config: """
        [general]
        idle-after = 1h
        [limits]
        stdisabled = 1s
        """), desk: sway)
    let probe = try SwayProbe(path: sway.ipcSocket)
    let version = try sway.runAsUser("sway", ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let alpha = try sway.openWindow(appID: "stalpha")
    let beta = try sway.openWindow(appID: "stbeta")
    let disabled = try sway.openWindow(appID: "stdisabled")
    // Its limit is used up first.
    guard eventually(5, { (try? probe.inScratchpad(disabled.conID)) == true }) else {
        fatalError("the agent did not disable the app: \(agent.log)")
    }

    // The probe reads the state right: a window of an app with no limit, hidden and shown again.
    try probe.command("[con_id=\(alpha.conID)] move scratchpad")
    let hiddenSeen = try probe.inScratchpad(alpha.conID)
    try probe.command("[con_id=\(alpha.conID)] scratchpad show")
    guard hiddenSeen, try !probe.inScratchpad(alpha.conID) else { fatalError("the probe cannot tell the scratchpad") }

    let pid = agent.process.processIdentifier
    let onCPUBefore = ProcessMeasures.cpuTime(pid)
    var latencies: [Double] = []
    /// sway's own part: from the command sent to its reply (it shows the window meanwhile).
    var showReplies: [Double] = []
    var activations = 0
    var turn = 0
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        let window = [alpha, disabled, beta, disabled][turn % 4]
        turn += 1
        let started = DispatchTime.now()
        if window.conID == disabled.conID {
            activations += 1
            try probe.command("[con_id=\(window.conID)] scratchpad show")
            showReplies.append(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
            var hidden = false
            while !hidden && DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds < 1_000_000_000 {
                hidden = try probe.inScratchpad(window.conID)
            }
            if hidden { latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6) }
        } else {
            try probe.command("[con_id=\(window.conID)] focus")
        }
        let next = started.uptimeNanoseconds + 500_000_000
        let now = DispatchTime.now().uptimeNanoseconds
        if next > now { usleep(useconds_t((next - now) / 1000)) }
    }
    let onCPU = ProcessMeasures.cpuTime(pid) - onCPUBefore
    let rss = ProcessMeasures.rssMegabytes(pid)
    agent.stop()
    sway.stop()

    let sorted = latencies.sorted()
    print("\(version), headless: focus switches: \(turn) in \(Int(seconds)) s; activations of the disabled app: \(activations), back in the scratchpad: \(sorted.count)")
    print(String(format: "agent activation -> scratchpad: median %.2f ms, p90 %.2f ms, max %.2f ms",
                 ProcessMeasures.percentile(sorted, 0.5), ProcessMeasures.percentile(sorted, 0.9), sorted.last ?? .nan))
    let replies = showReplies.sorted()
    print(String(format: "of which sway's reply to `scratchpad show`: median %.2f ms, p90 %.2f ms",
                 ProcessMeasures.percentile(replies, 0.5), ProcessMeasures.percentile(replies, 0.9)))
    print(String(format: "agent CPU: %.3f s over %.0f s (%.3f s per 60 s); RSS %.1f MB", onCPU, seconds, onCPU * 60 / seconds, rss))
}
