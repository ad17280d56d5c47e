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
}
