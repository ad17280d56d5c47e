import FoundationEssentials

/// What a card says: kind, factual, and always stating that the choice is the user's (the study:
/// "the reminders reiterate that the user is free to choose"). Nothing blames. The notifications'
/// texts are in `Wording`; a card says the same in its own place, with buttons instead of commands.
public enum CardWording {
    public static let close = "Close"
    /// The morning reminder's way through: the app was not minimized.
    public static let continueNow = "Continue"
    /// A limit card's title when the agent did not name the app.
    public static let unnamedApp = "This app"
    public static let goToBed = "Go to bed"
    public static let stayUp = "Stay up"
    public static let startDay = "Start the day"
    public static let sleepMusic = "Sleep music"

    /// `Continue for 1 hour`, `Continue for 15 minutes`.
    public static func continueFor(_ grant: TimeInterval) -> String { "Continue for \(spelled(grant))" }

    // MARK: An app at its daily limit

    public static func limitTitle(_ app: AppInfo) -> String { "Time for a break from \(app.name)?" }

    /// `used` is nil when the usage store cannot be read (the card then says only what happened).
    public static func limitMessage(_ app: AppInfo, used: TimeInterval?, grant: TimeInterval?) -> String {
        let choice = grant.map { "It is your choice: leave it here for today, or continue for \(spelled($0))." }
            ?? "It is your choice what to do next; \(app.name) is back tomorrow."
        let what = used.map { "You have used \(app.name) for \(spelled($0)) today, and it has been minimized." }
            ?? "\(app.name) has reached its daily limit and has been minimized."
        return "\(what) \(choice)"
    }

    // MARK: An app the mode does not include

    public static func notAllowedTitle(_ app: AppInfo, in mode: Mode, response: DisallowedAppResponse) -> String {
        switch response {
        case .suggestActivityAwayFromDesk: "It is your break: \(app.name) can wait"
        case .offerCalmAlternatives, .sleepShortcuts: "\(app.name) is resting for the night"
        case .morningReminder: "Good morning. \(app.name) first thing?"
        default: "\(app.name) waits until \(mode.displayName) ends"
        }
    }

    /// The mode's words under the title; `app` is nil on the card shown at unlock.
    public static func modeMessage(_ mode: Mode, response: DisallowedAppResponse, app: AppInfo?, grant: TimeInterval?) -> String {
        let context: String = switch response {
        case .disableShowingBreakAndAgenda: "Productivity mode keeps your work and messages in front. Here is what is next."
        case .suggestActivityAwayFromDesk: "A few minutes away from the screen refresh you more than a few more on it."
        case .quickNavigation: "Social mode is for people: your messages, calls and maps are one click away."
        case .offerCalmAlternatives: "The evening is winding down. Something calm suits it better, and sleep is close."
        case .sleepShortcuts: "It is night time. Sleep music, your messages and the clock are here for you."
        case .morningReminder: "Skipping feeds and videos in the first hour of the day lowers stress for many people."
        case .countdownThenDisable, .nothing: "\(mode.displayName) mode does not include this app."
        }
        guard let app else { return context }
        if response == .morningReminder { return "\(context) It is your choice: continue, or come back to \(app.name) later." }
        let choice = grant.map { "It is your choice: leave \(app.name) for now, or take \(Wording.moreTime($0).lowercased())." }
            ?? "It is your choice: \(app.name) is back when \(mode.displayName) ends."
        return "\(context) \(choice)"
    }

    /// The title of a mode's card shown at unlock.
    public static func modeTitle(_ mode: Mode) -> String { "\(mode.displayName) mode" }

    /// The button that ends the mode early, and its section's title.
    public static func leaveMode(_ mode: Mode) -> String { "End \(mode.displayName) now" }
    public static let leavingEarly = "Leaving early"

    // MARK: Sections

    public static let nextBreak = "Next break"
    public static let yourBreak = "Your break"
    public static let nextEvents = "Next events"
    public static let toDo = "To do"
    public static let quickNavigation = "Open quickly"
    public static let calmAlternatives = "Something calm"
    public static let shortcuts = "For the night"

    /// `In 25 minutes, at 10:00`: minutes rounded up, so the break is never later than said.
    public static func breakDue(in left: TimeInterval, at clock: String) -> String {
        left <= 0 ? "Now" : "In \(spelled((left / 60).rounded(.up) * 60)), at \(clock)"
    }

    /// `10:00–11:00 Design review, Room 4`; `All day: Holiday` without a time.
    public static func event(_ title: String, location: String?, time: (start: String, end: String)?) -> String {
        let place = location.map { ", \($0)" } ?? ""
        return (time.map { "\($0.start)–\($0.end) " } ?? "All day: ") + title + place
    }

    public static let noEvents = "Nothing more in your calendars today."
    public static let nothingToDo = "Nothing on your list."
    public static let noQuickApps = "No messaging or maps app is installed; `[social] quick-nav` can name yours."
    public static let noAlternatives = "`[wind-down] alternatives` can list your calm apps and links."

    // MARK: A Productivity break

    public static let breakTitle = "Time for a short break"

    public static func breakEnds(at clock: String) -> String { "Ends at \(clock)" }

    public static func breakMessage(activity: String?, endsAt clock: String?) -> String {
        let suggestion = activity.map { "How about this: \($0.hasSuffix(".") ? String($0.dropLast()) : $0)." }
            ?? "A few minutes away from the desk refresh you."
        let end = clock.map { " The break ends at \($0); colour and notifications are back until then." } ?? ""
        return "\(suggestion)\(end) It is your choice how to spend it."
    }

    /// `1 hour`, `25 minutes`, `1 hour 5 minutes`, `45 seconds`: durations in a sentence, minutes rounded down.
    public static func spelled(_ duration: TimeInterval) -> String {
        let total = max(0, duration.saturatedSeconds())
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        if total < 60 { return unit(total, "second") }
        let (hours, minutes) = (total / 3600, total % 3600 / 60)
        if hours == 0 { return unit(minutes, "minute") }
        return minutes == 0 ? unit(hours, "hour") : "\(unit(hours, "hour")) \(unit(minutes, "minute"))"
    }
}
