import Logging
import FoundationEssentials

/// The engine's next moment: a countdown mark, a limit, a mode's break, the day's end.
final class EngineTimerSource: LoopSource {
    private unowned let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.engineNextDeadline() }

    func handle(ready: [Int32], now: Date) { agent.apply(agent.engine.handle(.tick, at: now)) }
}

/// The open interval written every `flushInterval` while counting: the most a SIGKILL loses.
final class UsageFlushSource: LoopSource {
    private unowned let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.usage.nextFlush }

    func handle(ready: [Int32], now: Date) { agent.flushUsage(now: now) }
}

/// The session bus or the desktop looked for again, after it was lost or not found.
final class ReconnectSource: LoopSource {
    private unowned let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.nextReconnect }

    func handle(ready: [Int32], now: Date) { agent.reconnect(now: now) }
}

/// The screen filter's fade, one step at a time.
final class FilterFadeSource: LoopSource {
    private unowned let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.nextFilterStep }

    func handle(ready: [Int32], now: Date) {
        agent.nextFilterStep = nil
        do { agent.nextFilterStep = try agent.desktop?.filter.step(now: now) } catch { Log.warning("display filter: \(error)") }
    }
}
