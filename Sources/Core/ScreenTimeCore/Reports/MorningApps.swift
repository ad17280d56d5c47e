import FoundationEssentials

/// The apps the user usually opens in the morning: on each of the last days, the apps used in the
/// first two hours after the day's first activity, ranked by how many days they were.
public struct MorningApps {
    /// One stretch of use from the history (the report's interval).
    public typealias Use = UsageReport.Interval

    public var boundary: DayBoundary
    public var zone: LocalTimeZone
    /// Days looked back, today not included.
    public var days = 14
    /// How long after the day's first activity counts as the morning.
    public var window: TimeInterval = 2 * 3600
    /// An app used on fewer mornings is no habit.
    public var minimumDays = 2
    public var limit = 5

    public init(boundary: DayBoundary, zone: LocalTimeZone) {
        self.boundary = boundary
        self.zone = zone
    }

    /// The span of history `usual` reads: the `days` days before the one holding `now`.
    public func history(before now: Date) -> Range<Date> {
        let today = boundary.start(of: now, in: zone)
        let first = CivilDate(parsing: boundary.label(of: today, in: zone))!.adding(days: -days)
        return boundary.start(ofDay: first, in: zone)..<today
    }

    /// The usual morning apps, most mornings first (then more time in those mornings, then by id).
    public func usual(_ uses: [Use], before now: Date) -> [AppID] {
        let span = history(before: now)
        let byDay = Dictionary(grouping: uses.filter { $0.end > $0.start && span.contains($0.start) }) {
            boundary.label(of: $0.start, in: zone)
        }
        var mornings: [AppID: Int] = [:]
        var time: [AppID: TimeInterval] = [:]
        for dayUses in byDay.values {
            guard let first = dayUses.map(\.start).min() else { continue }
            let morning = first..<first.addingTimeInterval(window)
            var seen = Set<AppID>()
            for use in dayUses where morning.contains(use.start) {
                time[use.app, default: 0] += min(use.end, morning.upperBound).timeIntervalSince(use.start)
                if seen.insert(use.app).inserted { mornings[use.app, default: 0] += 1 }
            }
        }
        return mornings.filter { $0.value >= minimumDays }.keys.sorted { a, b in
            (mornings[a]!, time[a]!, b.rawValue) > (mornings[b]!, time[b]!, a.rawValue)
        }.prefix(limit).map { $0 }
    }
}
