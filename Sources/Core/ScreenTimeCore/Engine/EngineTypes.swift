import FoundationEssentials

/// The app in front, as the engine sees it.
public struct FocusedApp: Equatable, Sendable {
    public var app: AppInfo
    public var window: WindowID
    /// Untrusted text.
    public var title: String

    public init(app: AppInfo, window: WindowID, title: String) {
        self.app = app
        self.window = window
        self.title = title
    }
}

/// Something that happened, handed to the engine with the time it happened.
public enum EngineEvent: Equatable, Sendable {
    /// A client window of an app got focus; nil when no app window has it (desktop, panel, nothing).
    case focus(FocusedApp?)
    case title(String)
    /// The session became active (input) or inactive (idle beyond the threshold, locked, asleep).
    case activity(active: Bool)
    /// The session's lock ended (logind, a screen saver): some modes greet the user with their
    /// card. Sent before the `.activity` the unlock brings, so Wake Up's run-down takes the
    /// unlock card's place rather than following it.
    case unlocked
    case settings(Settings)
    /// The user chose an action in the notification of `app`.
    case notificationAction(app: AppID, key: String)
    /// The user asked to continue using an app past its limit (from the CLI or a notification).
    case continueRequested(AppID)
    /// The mode in force, sent at start and at every change (a Productivity break starting or
    /// ending is a change too).
    case mode(ModeDecision)
    /// A deadline the engine asked for has come.
    case tick
    /// The wall clock jumped (a suspend the agent did not hear of, or the clock was set): the
    /// user was last seen at `lastSeen` (on the old clock); the event's time is the new clock's
    /// now, which may be earlier than anything seen before. Counting ends at `lastSeen` and starts
    /// again from the new now, so a jump is never counted and a step back never shrinks a count.
    case clockJumped(lastSeen: Date)
}

/// What the engine wants done; the agent carries it out. The notices and cards are boxed
/// (`indirect`): every list of actions the engine builds at a focus switch copies its elements,
/// and unboxed, each would be the size of a card.
public enum EngineAction: Equatable, Sendable {
    /// Shows the app's one notification, or updates it in place.
    indirect case notify(app: AppID, NotificationRequest)
    case closeNotification(app: AppID)
    /// Shows a card (`screentime-card`) over a dimmed screen; `fallback` is the notification shown
    /// where no card can be (no display, no card program), as the same app's or the mode's notice.
    indirect case showCard(CardRequest, fallback: NotificationRequest)
    /// Minimizes every window of the app.
    case minimize(AppID)
    /// Foreground time of `app` starts, in `mode` (its raw value).
    case beginInterval(app: AppID, title: String, mode: String, at: Date)
    case endInterval(at: Date)
    /// A continue: `app` goes past `rule` for `granted` seconds, granted in `mode` (its raw value).
    case recordBypass(app: AppID, mode: String, rule: BypassedRule, granted: TimeInterval, at: Date)
    case recordLimitHit(app: AppID, used: TimeInterval, at: Date)
    /// The display filter the mode asks for (sent on every mode change and when a break starts or ends).
    case setDisplayFilter(DisplayFilterName)
    /// The one notification about the mode itself (a new mode, a break), shown or updated in place.
    indirect case notifyMode(NotificationRequest)
    /// What the notification server lets through now (the mode's, the break's); `.normal` gives
    /// the user's own do-not-disturb state back. Sent at the first mode and at each change of
    /// policy only, as the last action of its list (after the notices of that moment).
    case setDoNotDisturb(NotificationPolicy)
    case recordModeChange(mode: Mode, reason: ModeReason, at: Date)
    /// Status (usage, remaining time) changed in a way a widget shows.
    case statusChanged
}

/// What a continue goes past: the app's daily limit, or the mode's restriction.
public enum BypassedRule: String, Sendable {
    case limit
    case mode
}

/// Notification action keys.
public enum ActionKey {
    public static let `continue` = "continue"
    public static let ok = "ok"
}
