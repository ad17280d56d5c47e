import FoundationEssentials
import ScreenTimeCore
import SessionBus
import UsageStore

/// What a switch of mode did: `switched` (nothing was left early), `ask` (it would leave a
/// restrictive mode early and was not confirmed: `words` say so), `continue` (the mode steps aside
/// for `granted` seconds) or `ended`.
public struct ModeSwitchResult: Equatable, Sendable {
    public var outcome: String
    public var granted: TimeInterval
    public var words: String

    public init(outcome: String, granted: TimeInterval = 0, words: String = "") {
        self.outcome = outcome
        self.granted = granted
        self.words = words
    }
}

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
        let earlier = try store.modeExits(from: now.addingTimeInterval(-2 * 86_400), to: now.addingTimeInterval(1))
        let continued = earlier.contains { exit in
            exit.mode == decision.mode.rawValue && exit.granted != nil
                && ModeExit.belongsToRun(exitAt: exit.at, granted: exit.granted ?? 0, runSince: decision.since)
        }
        let outcome = ModeExit.outcome(decision.mode, continuedInThisRun: continued, settings: settings)
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
}

extension AgentClient {
    /// `LeaveMode`: the switch as the terminal asks it, confirmed or not (`ModeSwitchResult`).
    public func leaveMode(_ mode: String, confirmed: Bool) throws -> ModeSwitchResult {
        let reply = try call(AgentInterface.Method.leaveMode, [.string(mode), .bool(confirmed)])
        guard reply.count == 3, let outcome = reply[0].stringValue, case .double(let granted) = reply[1], let words = reply[2].stringValue else {
            throw BusError.unexpectedReply(context: "LeaveMode", signature: "")
        }
        return ModeSwitchResult(outcome: outcome, granted: granted, words: words)
    }
}
