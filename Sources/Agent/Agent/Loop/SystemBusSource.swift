import FoundationEssentials

/// logind on the system bus: sleep, and the session's lock.
final class SystemBusSource: LoopSource {
    private unowned let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout [PollRequest]) {
        if let connection = agent.logind?.connection { requests.append(PollRequest(descriptor: connection.fileDescriptor)) }
    }

    func nextDeadline(now: Date) -> Date? { agent.logind?.connection.hasQueuedIncoming == true ? now : nil }

    func handle(ready: [Int32], now: Date) { agent.systemBusReadable() }
}
