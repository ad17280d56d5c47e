import FoundationEssentials

/// What the agent asks the card process (`screentime-card`) to show: the occasion and the facts
/// only the agent knows at that moment. The card process reads the rest (statistics, calendars,
/// the to-do list, feeds) itself, so the agent stays lean. Sent as JSON.
public struct CardRequest: Codable, Equatable, Sendable {
    public enum Occasion: String, Codable, Sendable {
        /// The app reached its daily limit and was minimized.
        case limitReached = "limit"
        /// The mode does not include the app; it was minimized.
        case notAllowed = "mode"
        /// The session was unlocked in a mode that shows its card then (Productivity, Social, Sleep, Wake Up).
        case unlocked
        /// The first activity of Wake Up: the morning run-down.
        case rundown
        /// A Productivity break began: one activity away from the desk.
        case breakStarted = "break"
    }

    public var occasion: Occasion
    public var mode: Mode
    /// The app disabled (limit, not allowed); nil for the other occasions.
    public var app: AppInfo?
    /// The way through: how long a continue grants; nil when there is none.
    public var grant: TimeInterval?
    /// Productivity: when the next break is due, or when the break under way ends.
    public var nextBreakAt: Date?
    public var breakEndsAt: Date?
    /// A break's suggested activity, from the user's wellness list.
    public var activity: String?
    /// When the agent asked (the card's "now").
    public var at: Date
    /// Set when the card may end the mode early (`ModeExit`: Wind Down or Sleep, or Productivity
    /// after its first continue): the question, with the mode's words and what is left of it.
    public var leave: String?

    public init(occasion: Occasion, mode: Mode, app: AppInfo? = nil, grant: TimeInterval? = nil, nextBreakAt: Date? = nil,
                breakEndsAt: Date? = nil, activity: String? = nil, at: Date) {
        self.occasion = occasion
        self.mode = mode
        self.app = app
        self.grant = grant
        self.nextBreakAt = nextBreakAt
        self.breakEndsAt = breakEndsAt
        self.activity = activity
        self.at = at
    }
}

/// The card's answer keys, shared by the card process and the agent (`CardChosen`).
public enum CardChoice {
    /// The way through ("Continue for 1 hour", "3 more minutes").
    public static let `continue` = ActionKey.continue
    /// Close (Escape): the app stays minimized.
    public static let close = "close"
    /// Wind Down: Sleep now.
    public static let bedtime = "bedtime"
    /// Wind Down: pause Wind Down for an hour.
    public static let stayUp = "stay-up"
    /// Wake Up: end the night's modes.
    public static let startDay = "start-day"
    /// End the mode early (offered when `CardRequest.leave` is set): recorded as a continue.
    public static let leaveMode = "leave-mode"
    /// A launch button (`launch:<id>`): the card started something itself; the agent only logs it.
    public static let launchPrefix = "launch:"
}
