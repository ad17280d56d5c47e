import FoundationEssentials

/// Usage over a range of days, as the store recorded it, ready to print in any format.
public struct UsageReport: Equatable, Codable, Sendable {
    public struct AppUsage: Equatable, Codable, Sendable {
        public var id: AppID
        public var name: String
        /// The app's group in this report (`ReportGroup`).
        public var group: String
        public var seconds: TimeInterval
        /// Per day label (`2026-11-29`), for multi-day reports and CSV.
        public var days: [String: TimeInterval]
    }

    /// Time under one name (a group, a mode), in all and per day.
    public struct Share: Equatable, Codable, Sendable {
        public var name: String
        public var seconds: TimeInterval
        public var days: [String: TimeInterval]

        public init(name: String, seconds: TimeInterval, days: [String: TimeInterval]) {
            self.name = name
            self.seconds = seconds
            self.days = days
        }
    }

    /// One day of the period, for the days side by side.
    public struct Day: Equatable, Codable, Sendable {
        public var date: String
        public var seconds: TimeInterval
        public var pickups: Int
        public var switches: Int
    }

    /// The period before, of the same length, for the change.
    public struct Previous: Equatable, Codable, Sendable {
        public var from: String
        public var seconds: TimeInterval
        public var pickups: Int
        public var switches: Int
    }

    public struct Event: Equatable, Codable, Sendable {
        public var app: AppID
        public var at: String
        /// The day it counts for (`day-start` decides).
        public var day: String
        public var seconds: TimeInterval
        /// The mode a continue was taken in; none for a limit reached.
        public var mode: String?
    }

    /// `Today`, `Yesterday`, `Last 7 days`, or the date.
    public var title: String
    public var from: String
    public var to: String
    public var totalSeconds: TimeInterval
    /// The total over the period's days, whether used or not.
    public var dailyAverageSeconds: TimeInterval
    /// First uses after a pause: see `UsageTally`.
    public var pickups: Int
    /// Moves from one app to another without a pause.
    public var switches: Int
    public var previous: Previous
    public var days: [Day]
    public var apps: [AppUsage]
    public var groups: [Share]
    public var modes: [Share]
    /// Time per weekday (Monday first) and hour of the clock, local time.
    public var hours: [[TimeInterval]]
    /// Continues taken: the app, when, the time granted and the mode.
    public var bypasses: [Event]
    /// Limits reached: the app, when, and the time used by then.
    public var limitsReached: [Event]
    /// Time per joined computer (`screentime sync`), this one included; nil when not joined.
    public var devices: [Share]? = nil
    /// Spans the agent was not there to count, by cause (NotTrackedReport.swift).
    public var notTracked: [NotTracked] = []
    /// Restrictive modes left early by hand, each a continue (NotTrackedReport.swift).
    public var modeExits: [ModeExitEntry] = []

    /// One recorded foreground interval.
    public struct Interval: Sendable {
        public var app: AppID
        public var mode: String
        public var start: Date
        public var end: Date
        public init(app: AppID, mode: String = Mode.standard.rawValue, start: Date, end: Date) {
            self.app = app
            self.mode = mode
            self.start = start
            self.end = end
        }
    }

    public struct Bypass: Sendable {
        public var app: AppID
        public var mode: String
        public var at: Date
        public var granted: TimeInterval
        public init(app: AppID, mode: String, at: Date, granted: TimeInterval) {
            self.app = app
            self.mode = mode
            self.at = at
            self.granted = granted
        }
    }

    /// The report of `range` from its intervals' tally and the tally of the period before.
    public init(title: String, range: ReportRange, tally: UsageTally, previous before: UsageTally,
                bypasses: [Bypass], limitHits: [(AppID, Date, TimeInterval)],
                names: (AppID) -> String, group: (AppID) -> String, boundary: DayBoundary, zone: LocalTimeZone) {
        self.title = title
        from = LocalTimeText.iso8601(range.start, in: zone)
        to = LocalTimeText.iso8601(range.end, in: zone)
        let apps = tally.apps.map { id, days in
            AppUsage(id: id, name: names(id), group: group(id), seconds: days.values.reduce(0, +), days: days)
        }.sorted { ($0.seconds, $1.id) > ($1.seconds, $0.id) }
        self.apps = apps
        var perGroup: [String: [String: TimeInterval]] = [:]
        for app in apps {
            perGroup[app.group, default: [:]].merge(app.days, uniquingKeysWith: +)
        }
        groups = Self.shares(perGroup)
        modes = Self.shares(tally.modes)
        hours = tally.hours
        totalSeconds = apps.reduce(0) { $0 + $1.seconds }
        dailyAverageSeconds = totalSeconds / Double(range.days.count)
        let (dayPickups, daySwitches) = (tally.pickups, tally.switches)
        pickups = dayPickups.values.reduce(0, +)
        switches = daySwitches.values.reduce(0, +)
        days = range.days.map(\.description).map { day in
            Day(date: day, seconds: apps.reduce(0) { $0 + ($1.days[day] ?? 0) },
                pickups: dayPickups[day] ?? 0, switches: daySwitches[day] ?? 0)
        }
        self.previous = Previous(
            from: LocalTimeText.iso8601(range.previous(boundary: boundary, zone: zone).start, in: zone),
            seconds: before.apps.values.reduce(0) { $0 + $1.values.reduce(0, +) },
            pickups: before.pickups.values.reduce(0, +), switches: before.switches.values.reduce(0, +))
        self.bypasses = bypasses.map { Event(app: $0.app, at: LocalTimeText.iso8601($0.at, in: zone), day: boundary.label(of: $0.at, in: zone), seconds: $0.granted, mode: $0.mode) }
        limitsReached = limitHits.map { Event(app: $0.0, at: LocalTimeText.iso8601($0.1, in: zone), day: boundary.label(of: $0.1, in: zone), seconds: $0.2) }
    }

    private static func shares(_ perName: [String: [String: TimeInterval]]) -> [Share] {
        perName.map { Share(name: $0.key, seconds: $0.value.values.reduce(0, +), days: $0.value) }
            .sorted { ($0.seconds, $1.name) > ($1.seconds, $0.name) }
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
