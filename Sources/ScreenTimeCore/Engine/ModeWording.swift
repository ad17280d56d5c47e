import FoundationEssentials

/// What the user reads about modes: kind, and always stating their free choice.
extension Wording {
    /// The one notification of a mode starting: its icon and what it does, in a line.
    public static func modeStarted(_ mode: Mode) -> NotificationRequest {
        NotificationRequest(icon: mode.iconName, summary: "\(mode.displayName) mode",
                            body: mode.summary + " `screentime status` says why and until when; `screentime mode` changes it.",
                            urgency: .low, category: "screentime.mode")
    }

    public static func breakStarted(length: TimeInterval?) -> NotificationRequest {
        let span = length.map { "a \(DurationText.spoken($0)) break" } ?? "a short break"
        return NotificationRequest(
            icon: Mode.productivity.iconName, summary: "Time for \(span)",
            body: "Step away from the desk: stretch, drink some water, look at something far away. "
                + "Colour and notifications are back until the break ends; `screentime status` shows how long.",
            urgency: .normal, category: "screentime.mode")
    }

    /// Shown with the app minimized, when the mode does not include it. `context` is the mode's
    /// own line (time to the next break, calm alternatives, shortcuts).
    public static func notAllowed(_ app: AppInfo, in mode: Mode, response: DisallowedAppResponse, grant: TimeInterval?,
                                  context: String) -> NotificationRequest {
        var actions: [NotificationAction] = []
        if let grant { actions.append(NotificationAction(key: ActionKey.continue, label: moreTime(grant))) }
        actions.append(NotificationAction(key: ActionKey.ok, label: "OK"))
        let choice = grant.map { "It is your choice: leave \(app.name) for now, or take \(moreTime($0).lowercased())." }
            ?? "It is your choice: \(app.name) is back when \(mode.displayName) ends."
        let summary: String = switch response {
        case .suggestActivityAwayFromDesk: "It is your break: \(app.name) can wait"
        case .offerCalmAlternatives, .sleepShortcuts: "\(app.name) is resting for the night"
        default: "\(app.name) waits until \(mode.displayName) ends"
        }
        return NotificationRequest(icon: mode.iconName, summary: summary, body: "\(context) \(choice)",
                                   actions: actions, urgency: .normal, expireTimeout: 0, category: "screentime.mode-app")
    }

    /// The mode's own line for `notAllowed`: DESIGN.md's last column, in text.
    public static func disallowedContext(_ mode: Mode, response: DisallowedAppResponse, nextBreakIn: TimeInterval?) -> String {
        switch response {
        case .disableShowingBreakAndAgenda:
            let next = nextBreakIn.map { " Your next break is in \(DurationText.spoken($0.rounded(.up)))." } ?? ""
            return "Productivity mode keeps your work and messages in front, in quiet grayscale.\(next)"
        case .suggestActivityAwayFromDesk:
            return "A few minutes away from the screen refresh you more: stretch, get a glass of water, look out of a window."
        case .quickNavigation:
            return "Social mode is for people: your messages, calls and maps are open to you (screentime essential list)."
        case .offerCalmAlternatives:
            return "The evening is winding down. Something calm suits it better: an e-book, a puzzle game, an educational video. "
                + "Ready to sleep? `screentime bedtime`. Need longer? `screentime stay-up` pauses Wind Down for an hour."
        case .sleepShortcuts:
            return "It is night time. Sleep music, your messages and the clock are still here for you."
        case .countdownThenDisable, .morningReminder, .nothing:
            return "\(mode.displayName) mode does not include this app."
        }
    }

    /// Wake Up: opening a content app, a gentle word rather than a minimize.
    public static func morningReminder(_ app: AppInfo) -> NotificationRequest {
        NotificationRequest(
            icon: Mode.wakeUp.iconName, summary: "Good morning. \(app.name) first thing?",
            body: "Skipping feeds and videos in the first hour of the day lowers stress for many people. "
                + "It is your choice: continue, or come back to \(app.name) later.",
            actions: [NotificationAction(key: ActionKey.continue, label: "Continue"),
                      NotificationAction(key: ActionKey.ok, label: "OK")],
            urgency: .low, category: "screentime.mode-app")
    }

    /// `3 more minutes`, `1 more hour`, `90 more seconds`.
    public static func moreTime(_ grant: TimeInterval) -> String {
        let seconds = grant.saturatedSeconds()
        func plural(_ n: Int, _ unit: String) -> String { "\(n) more \(unit)\(n == 1 ? "" : "s")" }
        if seconds >= 3600, seconds % 3600 == 0 { return plural(seconds / 3600, "hour") }
        if seconds % 60 == 0 { return plural(seconds / 60, "minute") }
        return plural(seconds, "second")
    }
}
