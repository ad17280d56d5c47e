/// The modes of DESIGN.md's table. The Productivity break is a sub-state of Productivity
/// (see `ProductivityBreaks`), not a mode of its own: nothing schedules it.
public enum Mode: String, CaseIterable, Codable, Sendable {
    case standard
    case productivity
    case social
    case windDown = "wind-down"
    case sleep
    case wakeUp = "wake-up"
    case cheatDay = "cheat-day"

    /// Accepts the command-line name (`wind-down`) and the display name in any case, with spaces,
    /// dashes or underscores between words (`Wind Down`, `wind_down`).
    public init?(name: String) {
        let key = Mode.normalizedWords(name)
        guard let mode = Mode.allCases.first(where: { Mode.normalizedWords($0.rawValue) == key }) else { return nil }
        self = mode
    }

    public var displayName: String {
        switch self {
        case .standard: "Standard"
        case .productivity: "Productivity"
        case .social: "Social"
        case .windDown: "Wind Down"
        case .sleep: "Sleep"
        case .wakeUp: "Wake Up"
        case .cheatDay: "Cheat Day"
        }
    }

    /// Icon name for notifications and status bars (installed from desktop/icons).
    public var iconName: String { "screentime-\(rawValue)" }

    /// One line saying what the mode does for the user.
    public var summary: String {
        switch self {
        case .standard: "Your apps as usual, with gentle reminders before a daily limit."
        case .productivity: "Work and messages only, in grayscale and quiet, with a short break every hour."
        case .social: "Messages, calls and your chosen social apps; other notifications wait."
        case .windDown: "A calm evening: warm grayscale, quiet notifications and a few restful things to do."
        case .sleep: "Night time: clock, messages and sleep music; the rest waits for the morning."
        case .wakeUp: "Good morning: your day's run-down first, and a gentle word before the feeds."
        case .cheatDay: "A day off from every limit, booked ahead; your usage is still recorded."
        }
    }

    /// Modes the user can switch to with `screentime mode NAME`. Cheat Day must be booked ahead.
    public static let switchable: [Mode] = allCases.filter { $0 != .cheatDay }

    /// Lower-cased words, whatever separated them: "Wind Down", "wind-down" -> "wind down".
    static func normalizedWords(_ text: String) -> String {
        words(text).joined(separator: " ")
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
