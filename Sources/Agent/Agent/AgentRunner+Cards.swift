import Logging
import FoundationEssentials
import ScreenTimeCore

/// The restriction card: started as a short-lived `screentime-card` process, answering over the
/// agent's D-Bus interface (`CardChosen`). Where no card can be shown, the notification stands in.
extension AgentRunner {
    func showCard(_ request: CardRequest, fallback: NotificationRequest) throws {
        var request = request
        request.leave = cardLeaveOffer(for: request.occasion)
        let app = request.app?.id ?? AgentBus.modeNotice
        if let reason = cards.unavailability {
            logCardProblemOnce("no card can be shown (\(reason)); notifications stand in")
            try bus?.notify(app, fallback)
            return
        }
        do {
            let shown = try cards.show(request, fallback: fallback, x11Window: disabledX11Window(request), now: now)
            Log.info("card \(shown.id) for \(app)")
        } catch {
            logCardProblemOnce("cannot start the card (\(error)); notifications stand in")
            try bus?.notify(app, fallback)
            return
        }
        // The card says all the notification did (a countdown still shown, say).
        try bus?.closeNotification(app)
    }

    /// The card's answer: the way through, a mode action, the mode ended early, or Close (the app stays minimized).
    func cardChosen(card: String, key: String) throws {
        guard let shown = cards.answered(card) else {
            return Log.info("card \(card) answered \(key) after it was replaced; ignored")
        }
        Log.info("card \(card): \(key)")
        switch key {
        case CardChoice.continue:
            if let app = shown.app { send(.continueRequested(app)) }
        case CardChoice.bedtime, CardChoice.stayUp, CardChoice.startDay:
            try takeSleepAction(key)
        case CardChoice.leaveMode:
            try leaveModeFromCard()
        default:
            // Close, or a launch: the card started the app itself.
            break
        }
    }

    /// A card's output ended: it exited. One that failed before answering (no display could be
    /// opened) hands its notification back.
    func cardExited() {
        guard let (shown, status) = cards.outputArrived() else { return }
        logCardProblemOnce("the card exited with status \(status) before an answer; notifications stand in")
        do { try bus?.notify(shown.app ?? AgentBus.modeNotice, shown.fallback) } catch { Log.warning("notify: \(error)") }
    }

    /// The X window of the app the card is about, when focus comes from X11 (other providers'
    /// window ids are their own): the card goes to the monitor the app was on.
    private func disabledX11Window(_ request: CardRequest) -> WindowID? {
        guard let app = request.app?.id, let focused = engine.focused, focused.app.id == app,
              desktop?.choices.first(where: { $0.capability == .focus })?.kind == .x11 else { return nil }
        return focused.window
    }

    /// Once per reason per run: a session without cards would otherwise say it at every disable.
    private func logCardProblemOnce(_ message: String) {
        guard !cardProblemsLogged.contains(message) else { return }
        cardProblemsLogged.insert(message)
        Log.warning(message)
    }
}
