import Logging
import FoundationEssentials
import ScreenTimeCore

/// Loosening waits: the engine acts on the config file's settings as the commitment book lets
/// them hold (tightening at once, loosening at its due time).
extension AgentRunner {
    /// The config file's settings changed (or a pending loosening fell due): the engine gets what
    /// holds now. Returns the loosenings this change left waiting.
    @discardableResult
    func wantedSettingsChanged(at now: Date) -> [PendingChange] {
        let (kept, waiting) = keptSettings(at: now)
        if kept != engine.settings { settingsChanged(kept, at: now) }
        return waiting
    }

    /// The file's settings reconciled with the book at `now`, the book kept; and what newly waits.
    func keptSettings(at now: Date) -> (settings: Settings, newlyPending: [PendingChange]) {
        let (before, outcome) = commitments.reconcile(wanted: config.settings, now: now, zone: zone)
        for id in outcome.appliedLoosenings { Log.info("commitment: \(id) takes effect") }
        nextCommitmentDue = outcome.book.nextDue
        return (outcome.settings, outcome.newlyPending(since: before))
    }
}

/// The moment a pending loosening is due.
final class CommitmentSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.nextCommitmentDue }

    func handle(ready: [Int32], now: Date) { agent.wantedSettingsChanged(at: now) }
}
