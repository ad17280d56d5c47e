import FoundationEssentials

/// logind on the system bus: sleep, the session's lock, and the answer about the session's start.
final class SystemBusSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        if let connection = agent.logind?.connection { requests.add(connection.fileDescriptor) }
    }

    func nextDeadline(now: Date) -> Date? {
        guard let connection = agent.logind?.connection else { return nil }
        return connection.hasQueuedIncoming ? now : connection.nextReplyDeadline(now: now)
    }

    func handle(ready: [Int32], now: Date) {
        agent.logind?.connection.expireOverdueReplies()
        agent.systemBusReadable()
    }
}
