import DoNotDisturb
import FoundationEssentials

/// The notification server's do-not-disturb: the monitor of what it held back, and the adapter's
/// own connection or helper process and deadlines.
final class DoNotDisturbSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        requests.add(agent.doNotDisturb.monitorDescriptor)
        requests.add(agent.doNotDisturb.serverDescriptor)
    }

    func nextDeadline(now: Date) -> Date? { agent.doNotDisturb.nextDeadline }

    func handle(ready: [Int32], now: Date) { agent.doNotDisturb.handleReadable(now: now) }
}
