import Logging
import FoundationEssentials

/// The engine's next moment: a countdown mark, a limit, a mode's break, the day's end.
final class EngineTimerSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.engine.cachedNextDeadline() }

    func handle(ready: [Int32], now: Date) { agent.apply(agent.engine.handle(.tick, at: now)) }
}

/// The open interval written every `flushInterval` while counting: the most a SIGKILL loses.
final class UsageFlushSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.usage.nextFlush }

    func handle(ready: [Int32], now: Date) { agent.flushUsage(now: now) }
}

/// The session bus or the desktop looked for again, after it was lost or not found.
final class ReconnectSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.nextReconnect }

    func handle(ready: [Int32], now: Date) { agent.reconnect(now: now) }
}

/// The screen filter's fade, one step at a time.
final class FilterFadeSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.nextFilterStep }

    func handle(ready: [Int32], now: Date) {
        agent.nextFilterStep = nil
        do { agent.nextFilterStep = try agent.desktop?.filter.step(now: now) } catch { Log.warning("display filter: \(error)") }
    }
}

/// The code of the first turns (the start's replies: notification capabilities, do-not-disturb,
/// the card's probe) and of the day's occasional paths is given back `CodePages`-wise once the start
/// has settled, then hourly: the agent's resident code stays what its loop runs.
final class CodePagesSource: LoopSource {
    static let settling: TimeInterval = 30
    static let interval: TimeInterval = 3600
    private var next: Date?

    func nextDeadline(now: Date) -> Date? {
        if next == nil { next = now.addingTimeInterval(Self.settling) }
        return next
    }

    func handle(ready: [Int32], now: Date) {
        CodePages.release()
        next = now.addingTimeInterval(Self.interval)
    }
}
