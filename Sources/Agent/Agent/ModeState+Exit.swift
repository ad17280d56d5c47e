import AgentControl
import FoundationEssentials
import ScreenTimeCore
import SessionBus
import UsageStore

extension ModeState {
    /// A switch to `name` (or `auto`) by hand. Leaving a scheduled, calendar or automatic
    /// Productivity, Wind Down or Sleep early is a continue (`ModeExit`): unconfirmed, nothing
    /// changes and the question comes back; confirmed, it is recorded with `how` and carried out.
    public func switchMode(_ name: String, decision: ModeDecision, settings: Settings, how: String, confirmed: Bool,
                           now: Date) throws -> ModeSwitchResult {
        let target = name.lowercased() == "auto" ? nil : Mode(name: name)
        guard ModeExit.isEarly(decision, to: target) else {
            try setMode(name, settings: settings.modes, now: now)
            return ModeSwitchResult(outcome: "switched")
        }
        let outcome = try exitOutcome(decision, settings: settings, now: now)
        guard confirmed else {
            return ModeSwitchResult(outcome: "ask", words: ModeExit.question(decision, outcome: outcome, now: now, zone: zone))
        }
        try setMode(name, settings: settings.modes, now: now)
        let left = decision.next.map { $0.at.timeIntervalSince(now) }
        switch outcome {
        case .continueFor(let seconds):
            try store.setManualSwitch(ManualSwitch(mode: target ?? .standard, since: now, until: now.addingTimeInterval(seconds)))
            try store.recordModeExit(ModeExitRecord(mode: decision.mode.rawValue, at: now, left: left, granted: seconds, how: how))
            return ModeSwitchResult(outcome: "continue", granted: seconds)
        case .end:
            try store.recordModeExit(ModeExitRecord(mode: decision.mode.rawValue, at: now, left: left, granted: nil, how: how))
            return ModeSwitchResult(outcome: "ended")
        }
    }

    /// What leaving `decision`'s mode early gives now: Productivity's continue unless one was
    /// taken in this run of it, else the end (`ModeExit.outcome`).
    public func exitOutcome(_ decision: ModeDecision, settings: Settings, now: Date) throws -> ModeExit.Outcome {
        let earlier = try store.modeExits(from: now.addingTimeInterval(-2 * 86_400), to: now.addingTimeInterval(1))
        let continued = earlier.contains { exit in
            exit.mode == decision.mode.rawValue && exit.granted != nil
                && ModeExit.belongsToRun(exitAt: exit.at, granted: exit.granted ?? 0, runSince: decision.since)
        }
        return ModeExit.outcome(decision.mode, continuedInThisRun: continued, settings: settings)
    }
}
