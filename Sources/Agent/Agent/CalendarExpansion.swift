import FoundationEssentials
import ScreenTimeCore

/// What `screentime calendar expand` prints and the agent reads: the configured calendars'
/// mode intervals over a range, and the problems met (`file:line: message`). One JSON document.
public struct CalendarExpansion: Codable, Equatable, Sendable {
    public struct Event: Codable, Equatable, Sendable {
        public var mode: String
        /// Unix seconds.
        public var start: Double
        public var end: Double
        public var summary: String
        public var source: String
    }

    public var intervals: [Event]
    public var problems: [String]

    public init(intervals: [CalendarInterval], problems: [String]) {
        self.intervals = intervals.map {
            Event(mode: $0.mode.rawValue, start: $0.start.timeIntervalSince1970, end: $0.end.timeIntervalSince1970,
                  summary: $0.summary, source: $0.source)
        }
        self.problems = problems
    }

    /// The intervals as the resolver takes them; a mode this version does not know is left out.
    public var calendarIntervals: [CalendarInterval] {
        intervals.compactMap { event in
            Mode(rawValue: event.mode).map {
                CalendarInterval(mode: $0, start: Date(timeIntervalSince1970: event.start), end: Date(timeIntervalSince1970: event.end),
                                 summary: event.summary, source: event.source)
            }
        }
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func decode(_ bytes: [UInt8]) throws -> CalendarExpansion {
        try JSONDecoder().decode(CalendarExpansion.self, from: Data(bytes))
    }
}
