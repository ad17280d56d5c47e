import FoundationEssentials

/// One occurrence of a calendar event that names a mode: the mode holds for the event's duration.
/// Produced by the CalendarFeed module from .ics files, recurrences already expanded.
public struct CalendarInterval: Hashable, Sendable {
    public var mode: Mode
    public var start: Date
    public var end: Date
    /// The event's SUMMARY, untrusted text from the file.
    public var summary: String
    /// The file the event came from.
    public var source: String

    public init(mode: Mode, start: Date, end: Date, summary: String, source: String) {
        self.mode = mode
        self.start = start
        self.end = end
        self.summary = summary
        self.source = source
    }

    /// The mode an event names, from its summary or one of its categories; nil when it names none.
    ///
    /// A category names a mode when it is the mode's name (`productivity`, `wind-down`, `Wind Down`,
    /// any case). A summary names a mode when its first words are the mode's name: "Productivity:
    /// quarterly report" and "Wind down" do, "Sleepover" does not. "Social media audit" names Social
    /// too; a rule users can predict is worth that.
    public static func namedMode(summary: String, categories: [String]) -> Mode? {
        for category in categories {
            if let mode = Mode(name: category) { return mode }
        }
        let words = Mode.words(summary)
        return namesLongestFirst.first { words.starts(with: $0.words) }?.mode
    }

    /// Each mode's name as words, longest first, so "wake up" is not read as something shorter;
    /// worked out once, not for each of a calendar's thousands of occurrences.
    private static let namesLongestFirst: [(mode: Mode, words: [String])] =
        Mode.allCases.map { ($0, Mode.words($0.rawValue)) }.sorted { $0.words.count > $1.words.count }
}
