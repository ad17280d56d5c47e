import FoundationEssentials
import ScreenTimeCore

extension UsageReport {
    /// A period's intervals as a list, for tests (the CLI streams them from the store into a
    /// `UsageTally`): in order of start, clipped to the period, and the end of the last interval
    /// before it (to tell whether the first was a pickup).
    public struct History: Sendable {
        public var intervals: [Interval]
        public var lastEndBefore: Date?
        public init(intervals: [Interval], lastEndBefore: Date?) {
            self.intervals = intervals
            self.lastEndBefore = lastEndBefore
        }

        func tally(idleThreshold: TimeInterval, boundary: DayBoundary, zone: LocalTimeZone) -> UsageTally {
            var tally = UsageTally(lastEndBefore: lastEndBefore, idleThreshold: idleThreshold, boundary: boundary, zone: zone)
            for interval in intervals { tally.add(interval) }
            return tally
        }
    }

    /// The report of `range` from its history and the period before's, as the CLI builds it.
    public init(title: String, range: ReportRange, history: History, previous: History,
                bypasses: [Bypass], limitHits: [(AppID, Date, TimeInterval)],
                names: (AppID) -> String, group: (AppID) -> String, idleThreshold: TimeInterval,
                boundary: DayBoundary, zone: LocalTimeZone) {
        self.init(title: title, range: range,
                  tally: history.tally(idleThreshold: idleThreshold, boundary: boundary, zone: zone),
                  previous: previous.tally(idleThreshold: idleThreshold, boundary: boundary, zone: zone),
                  bypasses: bypasses, limitHits: limitHits, names: names, group: group, boundary: boundary, zone: zone)
    }
}
