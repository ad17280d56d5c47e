import FoundationEssentials

/// What a card shows, built from a `CardRequest` and the user's files by the card process, and
/// drawn by it (GTK) or printed (`screentime rundown`, `screentime-card --print`). Pure data: the
/// same document gives the same card on every desktop.
public struct CardDocument: Codable, Equatable, Sendable {
    /// Icon name or absolute path (the app's icon, or the mode's).
    public var icon: String
    public var title: String
    /// Today's time in the app and the week's, a bar per day; nil when the card is not about an app.
    public var statistics: CardStatistics?
    /// The mode's kind words; they state that the choice is the user's.
    public var message: String
    /// The mode's content: next items (the next break, events, to-dos, alternatives, stories).
    public var sections: [CardSection]
    /// In order; the first `.primary` one is the default (Enter). Escape is always "Close".
    public var buttons: [CardButton]

    public init(icon: String, title: String, statistics: CardStatistics? = nil, message: String,
                sections: [CardSection] = [], buttons: [CardButton]) {
        self.icon = icon
        self.title = title
        self.statistics = statistics
        self.message = message
        self.sections = sections
        self.buttons = buttons
    }
}

public struct CardStatistics: Codable, Equatable, Sendable {
    /// Today's time in the app.
    public var today: TimeInterval
    /// The last seven days, oldest first, today last.
    public var week: [CardDayBar]

    public init(today: TimeInterval, week: [CardDayBar]) {
        self.today = today
        self.week = week
    }
}

public struct CardDayBar: Codable, Equatable, Sendable {
    /// A short day name ("Mon").
    public var label: String
    public var seconds: TimeInterval

    public init(label: String, seconds: TimeInterval) {
        self.label = label
        self.seconds = seconds
    }
}

/// A heading and its lines ("Next events", "To do", "Overnight").
public struct CardSection: Codable, Equatable, Sendable {
    public var title: String
    public var items: [String]
    /// Shown instead of the items when there are none, or to say what could not be read (a feed that timed out).
    public var note: String?

    public init(title: String, items: [String], note: String? = nil) {
        self.title = title
        self.items = items
        self.note = note
    }
}

public struct CardButton: Codable, Equatable, Sendable {
    public enum Role: String, Codable, Sendable {
        /// The way through, or the mode's main action.
        case primary
        case normal
        /// Closes the card; the app stays minimized.
        case close
    }

    /// The answer sent to the agent (`CardChoice`), or `launch:<id>` for a launch button.
    public var key: String
    public var label: String
    public var role: Role
    /// Started by the card process itself before it answers (quick-nav, alternatives, sleep music).
    public var launch: CardLaunch?

    public init(key: String, label: String, role: Role = .normal, launch: CardLaunch? = nil) {
        self.key = key
        self.label = label
        self.role = role
        self.launch = launch
    }
}

/// Something a card button starts.
public enum CardLaunch: Codable, Equatable, Sendable {
    /// An app, by its desktop-entry id (`org.gnome.Maps`), started as its `Exec=` says.
    case desktopEntry(String)
    /// A link or file, opened with its default handler.
    case uri(String)
    /// A playlist or stream played by a running MPRIS player, else opened with its default handler.
    case music(String)
}
