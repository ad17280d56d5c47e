import FoundationEssentials

/// The restriction card's process: its end (answered, closed, crashed) is read from its output.
final class CardSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        agent.cards.forEachDescriptor { requests.add($0) }
    }

    func handle(ready: [Int32], now: Date) { agent.cardExited() }
}
