import FoundationEssentials

/// The summary of the week before, written by a short-lived reader process, stopped if overdue.
final class WeeklySummarySource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        agent.weeklySummary.forEachDescriptor { requests.add($0) }
    }

    func nextDeadline(now: Date) -> Date? { agent.weeklySummary.nextDeadline }

    func handle(ready: [Int32], now: Date) {
        if !ready.isEmpty { agent.weeklySummaryOutputArrived() }
        if let due = agent.weeklySummary.nextDeadline, due <= now { agent.weeklySummary.stopOverdue(now: now) }
    }
}
