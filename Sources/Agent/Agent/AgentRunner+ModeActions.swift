import FoundationEssentials
import ScreenTimeCore
import UsageStore

extension AgentRunner {
    /// A mode's own action chosen on a card or in a notification: "Go to bed" (`bedtime`), "Stay
    /// up" (`stay-up`), "Start the day" (`start-day`). Records it and decides the mode again;
    /// false when `key` is none of them.
    @discardableResult
    func takeSleepAction(_ key: String) throws -> Bool {
        guard let kind = SleepActionKind(rawValue: key) else { return false }
        try ModeState(store: store, zone: zone).record(kind, now: now)
        modesChanged()
        return true
    }

    /// The question a mode's card shows when it may end the mode early: a scheduled, calendar or
    /// automatic Wind Down or Sleep, or Productivity once its first continue was taken (before
    /// that, the card's own way through is the step out). Nil when the card offers no end.
    func cardLeaveOffer(for occasion: CardRequest.Occasion) -> String? {
        let decision = engine.decision
        guard occasion == .notAllowed || occasion == .unlocked, ModeExit.isEarly(decision, to: .standard),
              let outcome = try? ModeState(store: store, zone: zone).exitOutcome(decision, settings: engine.settings, now: now),
              outcome == .end else { return nil }
        return ModeExit.question(decision, outcome: outcome, now: now, zone: zone)
    }

    /// The card's "End <mode> now": the confirmed leave the terminal asks, recorded as the card's.
    func leaveModeFromCard() throws {
        _ = try ModeState(store: store, zone: zone).switchMode("standard", decision: engine.decision, settings: engine.settings,
                                                                how: "card", confirmed: true, now: now)
        modesChanged()
    }
}
