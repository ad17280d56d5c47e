import FoundationEssentials
import ScreenTimeCore

/// The restriction card: started as a short-lived `screentime-card` process, answering over the
/// agent's D-Bus interface (`CardChosen`). Where no card can be shown, the notification stands in.
extension AgentRunner {
    func showCard(_ request: CardRequest, fallback: NotificationRequest) throws {
        try bus?.notify(request.app?.id ?? AppID("screentime"), fallback)
    }

    /// The card's answer: the way through, a mode action, or Close.
    func cardChosen(card: String, key: String) throws {
        Log.info("card \(card): \(key)")
    }
}
