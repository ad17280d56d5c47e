import FoundationEssentials

/// What the user reads about modes: kind, and always stating their free choice.
extension Wording {
    /// Where a mode's notice points: why, until when, and the way to change it.
    static let modeCommands = "`screentime status` says why and until when; `screentime mode` changes it."

    /// The one notification of a mode starting: its icon and what it does, in a line, with the
    /// mode's own actions where it has some (Wind Down: go to bed or stay up; Wake Up: start the day).
    public static func modeStarted(_ mode: Mode, stayUpFor: TimeInterval) -> NotificationRequest {
        var body = mode.summary
        var actions: [NotificationAction] = []
        switch mode {
        case .windDown:
            body += " Ready to sleep? Go to bed turns Sleep on now; Stay up pauses Wind Down for \(DurationText.spoken(stayUpFor)). Your choice."
            actions = [NotificationAction(key: CardChoice.bedtime, label: "Go to bed"),
                       NotificationAction(key: CardChoice.stayUp, label: "Stay up")]
        case .wakeUp:
            body += " Up and ready? Start the day ends the night's modes whenever you like."
            actions = [NotificationAction(key: CardChoice.startDay, label: "Start the day")]
        default:
            break
        }
        return NotificationRequest(icon: mode.iconName, summary: "\(mode.displayName) mode",
                                   body: body + " " + modeCommands,
                                   actions: actions, urgency: .low, category: "screentime.mode")
    }

    /// A Productivity break begins: one activity away from the desk, from the user's own list.
    public static func breakStarted(length: TimeInterval?, activity: String) -> NotificationRequest {
        let span = length.map { "a \(DurationText.spoken($0)) break" } ?? "a short break"
        return NotificationRequest(
            icon: Mode.productivity.iconName, summary: "Time for \(span)",
            body: "A suggestion for it: \(activity). How you spend it is up to you. "
                + "Colour and notifications are back until the break ends; `screentime status` shows how long.",
            urgency: .normal, category: "screentime.mode")
    }

    /// A Productivity break is over; `nextBreakIn` is nil when no other break is due.
    public static func breakEnded(nextBreakIn: TimeInterval?) -> NotificationRequest {
        let next = nextBreakIn.map { "Your next break is in \(DurationText.spoken($0.rounded(.up))); " } ?? ""
        return NotificationRequest(
            icon: Mode.productivity.iconName, summary: "Your break is over",
            body: "Welcome back. Productivity carries on where you left it. \(next)"
                + "`screentime break` takes one sooner whenever you need it.",
            urgency: .low, category: "screentime.mode")
    }

    /// The session was unlocked in a mode that greets the user then: what the mode does now.
    /// `nextBreakIn` and `breakLeft` are Productivity's (the time to the next break, or the break's time left).
    public static func unlocked(_ mode: Mode, nextBreakIn: TimeInterval?, breakLeft: TimeInterval?) -> NotificationRequest {
        var body = mode.summary
        if let breakLeft { body += " You are on a break for \(DurationText.spoken(breakLeft.rounded(.up))) more." }
        if let nextBreakIn { body += " Your next break is in \(DurationText.spoken(nextBreakIn.rounded(.up)))." }
        return NotificationRequest(icon: mode.iconName, summary: "Welcome back: \(mode.displayName) mode",
                                   body: body + " " + modeCommands,
                                   urgency: .low, category: "screentime.mode")
    }

    /// Wake Up's first activity, where no card can show the run-down.
    public static func rundownReady() -> NotificationRequest {
        NotificationRequest(
            icon: Mode.wakeUp.iconName, summary: "Good morning",
            body: "Your morning run-down is ready: today's events, your reminders and what arrived overnight. "
                + "`screentime rundown` shows it whenever you like.",
            urgency: .low, category: "screentime.mode")
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
