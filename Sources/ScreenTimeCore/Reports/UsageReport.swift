import FoundationEssentials

/// Usage over a range of days, as the store recorded it, ready to print in any format.
public struct UsageReport: Equatable, Codable, Sendable {
    public struct AppUsage: Equatable, Codable, Sendable {
        public var id: AppID
        public var name: String
        public var seconds: TimeInterval
        /// Per day label (`2026-11-29`), for multi-day reports and CSV.
        public var days: [String: TimeInterval]
    }

    public struct Event: Equatable, Codable, Sendable {
        public var app: AppID
        public var at: String
        public var seconds: TimeInterval
    }

    /// `Today`, `Yesterday`, `Last 7 days`, or the date.
    public var title: String
    public var from: String
    public var to: String
    public var days: [String]
    public var totalSeconds: TimeInterval
    /// The same length of time just before, for the change.
    public var previousTotalSeconds: TimeInterval
    public var apps: [AppUsage]
    /// Continues taken: the app, when, and the time granted.
    public var bypasses: [Event]
    /// Limits reached: the app, when, and the time used by then.
    public var limitsReached: [Event]

    /// One recorded foreground interval.
    public struct Interval: Sendable {
        public var app: AppID
        public var start: Date
        public var end: Date
        public init(app: AppID, start: Date, end: Date) {
            self.app = app
            self.start = start
            self.end = end
        }
    }

    public init(title: String, range: ReportRange, intervals: [Interval], previousTotal: TimeInterval,
                bypasses: [(AppID, Date, TimeInterval)], limitHits: [(AppID, Date, TimeInterval)],
                names: (AppID) -> String, boundary: DayBoundary, zone: LocalTimeZone) {
        self.title = title
        from = LocalTimeText.iso8601(range.start, in: zone)
        to = LocalTimeText.iso8601(range.end, in: zone)
        days = range.days.map(\.description)
        var perApp: [AppID: [String: TimeInterval]] = [:]
        for interval in intervals {
            // Split at day boundaries so each day gets its own part.
            var start = interval.start
            while start < interval.end {
                let end = min(interval.end, boundary.end(of: start, in: zone))
                perApp[interval.app, default: [:]][boundary.label(of: start, in: zone), default: 0] += end.timeIntervalSince(start)
                start = end
            }
        }
        apps = perApp.map { id, days in
            AppUsage(id: id, name: names(id), seconds: days.values.reduce(0, +), days: days)
        }.sorted { ($0.seconds, $1.id) > ($1.seconds, $0.id) }
        totalSeconds = apps.reduce(0) { $0 + $1.seconds }
        previousTotalSeconds = previousTotal
        self.bypasses = bypasses.map { Event(app: $0.0, at: LocalTimeText.iso8601($0.1, in: zone), seconds: $0.2) }
        limitsReached = limitHits.map { Event(app: $0.0, at: LocalTimeText.iso8601($0.1, in: zone), seconds: $0.2) }
    }
}

/// A run of whole days.
public struct ReportRange: Equatable, Sendable {
    public var days: [CivilDate]
    public var start: Date
    public var end: Date

    public init(from first: CivilDate, to last: CivilDate, boundary: DayBoundary, zone: LocalTimeZone) {
        days = (0...max(0, last.daysSinceEpoch - first.daysSinceEpoch)).map { first.adding(days: $0) }
        start = boundary.start(ofDay: first, in: zone)
        end = boundary.start(ofDay: last.adding(days: 1), in: zone)
    }

    /// The range of the same number of days just before this one.
    public func previous(boundary: DayBoundary, zone: LocalTimeZone) -> ReportRange {
        let count = days.count
        return ReportRange(from: days[0].adding(days: -count), to: days[0].adding(days: -1), boundary: boundary, zone: zone)
    }
}
