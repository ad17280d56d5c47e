import FoundationEssentials

/// The in-tab cards being composed: their output, and their deadline.
final class TabCardSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        agent.tabCards.forEachDescriptor { requests.add($0) }
    }

    func nextDeadline(now: Date) -> Date? { agent.tabCards.nextDeadline }

    func handle(ready: [Int32], now: Date) {
        for composed in agent.tabCards.collect(now: now) { agent.coverTab(composed.browser, with: composed.card) }
    }
}
