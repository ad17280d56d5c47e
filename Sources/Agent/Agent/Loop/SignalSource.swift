import Glibc
import FoundationEssentials

/// SIGTERM, SIGINT and SIGHUP: the loop ends after this turn, through the agent's one way out.
final class SignalSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) { requests.add(agent.signals.fileDescriptor) }

    func handle(ready: [Int32], now: Date) { agent.stopRequested = .signal(agent.signals.take() ?? SIGTERM) }
}
