import FoundationEssentials

/// The weekly summary notification: whether an activity is the first of a new week, and what the
/// notification says about the week before. Pure: the time, the zone and the week last summed
/// up come in as arguments.
public enum WeeklySummary {
    /// The first day of the week holding `instant`: days end at the day boundary (a Sunday night
    /// before the day start still belongs to Sunday), weeks start on `weekStart`.
    public static func week(containing instant: Date, boundary: DayBoundary, weekStart: Weekday, zone: LocalTimeZone) -> CivilDate {
        let day = zone.localDate(of: boundary.start(of: instant, in: zone))
        return day.adding(days: -((day.weekday.rawValue - weekStart.rawValue + 7) % 7))
    }

    public enum Decision: Equatable, Sendable {
        /// The summary of this week was shown already (or the clock went back): nothing to do.
        case none
        /// Nothing is remembered yet (the first run): remember this week, show nothing, since there
        /// is no week before to sum up.
        case remember(week: CivilDate)
        /// The first activity of `week`: sum up the seven days before it, and remember `week`.
        case summarize(week: CivilDate)

        /// The week to remember, if any.
        public var week: CivilDate? {
            switch self {
            case .none: nil
            case .remember(let week), .summarize(let week): week
            }
        }
    }

    /// What the user's activity at `now` calls for, given the week in which the summary was last
    /// shown (`remembered`, nil before the first).
    public static func decide(activityAt now: Date, remembered: CivilDate?, boundary: DayBoundary, weekStart: Weekday,
                              zone: LocalTimeZone) -> Decision {
        let current = week(containing: now, boundary: boundary, weekStart: weekStart, zone: zone)
        guard let remembered else { return .remember(week: current) }
        return current > remembered ? .summarize(week: current) : .none
    }

    /// The days summed up at the start of `week`: the seven before it.
    public static func summarized(before week: CivilDate) -> ClosedRange<CivilDate> {
        week.adding(days: -7)...week.adding(days: -1)
    }

    /// The figures the notification needs, as `screentime report --json` prints them (the rest of
    /// the report is not read).
    public struct Figures: Decodable, Equatable, Sendable {
        public struct Previous: Decodable, Equatable, Sendable {
            public var seconds: TimeInterval
        }
        public struct App: Decodable, Equatable, Sendable {
            public var name: String
            public var seconds: TimeInterval
            public init(name: String, seconds: TimeInterval) {
                self.name = name
                self.seconds = seconds
            }
        }

        public var totalSeconds: TimeInterval
        public var dailyAverageSeconds: TimeInterval
        public var previous: Previous
        /// The most used first.
        public var apps: [App]

        public init(totalSeconds: TimeInterval, dailyAverageSeconds: TimeInterval, previousSeconds: TimeInterval, apps: [App]) {
            self.totalSeconds = totalSeconds
            self.dailyAverageSeconds = dailyAverageSeconds
            previous = Previous(seconds: previousSeconds)
            self.apps = apps
        }

        public static func decode(_ json: [UInt8]) throws -> Figures {
            try JSONDecoder().decode(Figures.self, from: Data(json))
        }
    }

    /// The key of the notification's default action, which opens the page.
    public static let openAction = "default"

    /// The notification: last week's total and daily average, the change against the week before,
    /// the top app; its default action (and, where the server shows links, a link) opens `page`.
    public static func notification(_ figures: Figures, days: ClosedRange<CivilDate>, page: String) -> NotificationRequest {
        let change = figures.totalSeconds - figures.previous.seconds
        let against = figures.previous.seconds == 0 ? "nothing was recorded the week before"
            : abs(change) < 60 ? "about the same as the week before"
            : "\(DurationText.spoken(abs(change))) \(change > 0 ? "more" : "less") than the week before"
        var body = "\(span(days)): \(DurationText.spoken(figures.dailyAverageSeconds)) a day on average; \(against)."
        if let top = figures.apps.first, top.seconds > 0 {
            body += " Most used: \(top.name), \(DurationText.spoken(top.seconds))."
        }
        return NotificationRequest(icon: "screentime", summary: "Last week: \(DurationText.spoken(figures.totalSeconds)) of screen time",
                                   body: body, actions: [NotificationAction(key: openAction, label: "Open the report")],
                                   category: "screentime.weekly-summary", link: NotificationLink(url: "file://" + page, label: "Open the full report"))
    }

    /// `23–29 Nov`, `30 Nov – 6 Dec`, `29 Dec 2025 – 4 Jan 2026`.
    static func span(_ days: ClosedRange<CivilDate>) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let (first, last) = (days.lowerBound, days.upperBound)
        func date(_ day: CivilDate, year: Bool) -> String { "\(day.day) \(months[day.month - 1])" + (year ? " \(day.year)" : "") }
        if first.year != last.year { return "\(date(first, year: true)) – \(date(last, year: true))" }
        if first.month != last.month { return "\(date(first, year: false)) – \(date(last, year: false))" }
        return "\(first.day)–\(date(last, year: false))"
    }
}
