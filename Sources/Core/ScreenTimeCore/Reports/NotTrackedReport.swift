import FoundationEssentials

extension UsageReport {
    /// A span of the period the agent was not there to count (`UntrackedSpan`), clipped to the period.
    public struct NotTracked: Equatable, Codable, Sendable {
        public var from: String
        public var to: String
        public var seconds: TimeInterval
        public var cause: String
        public var detail: String
    }

    /// Sets the spans not tracked of `from..<to`, each clipped to it.
    public mutating func setNotTracked(_ spans: [UntrackedSpan], from start: Date, to end: Date, zone: LocalTimeZone) {
        notTracked = spans.compactMap { span in
            let (from, to) = (max(span.start, start), min(span.end, end))
            guard from < to else { return nil }
            return NotTracked(from: LocalTimeText.iso8601(from, in: zone), to: LocalTimeText.iso8601(to, in: zone),
                              seconds: to.timeIntervalSince(from).rounded(), cause: span.cause.rawValue, detail: span.detail)
        }
    }
}

extension UsageReport {
    /// A restrictive mode left early (`ModeExit`): when, which, what was left, the continue's length
    /// (0: it was ended), and where it was asked.
    public struct ModeExitEntry: Equatable, Codable, Sendable {
        public var at: String
        public var mode: String
        public var leftSeconds: TimeInterval
        public var grantedSeconds: TimeInterval
        public var how: String

        public init(at: String, mode: String, leftSeconds: TimeInterval, grantedSeconds: TimeInterval, how: String) {
            self.at = at
            self.mode = mode
            self.leftSeconds = leftSeconds
            self.grantedSeconds = grantedSeconds
            self.how = how
        }
    }
}

/// "Not tracked" in the text and the page: by cause, the total and each span. Facts, never blame.
enum NotTrackedFormat {
    static func lines(_ report: UsageReport) -> [String] {
        guard !report.notTracked.isEmpty else { return modeExitLines(report) }
        var lines = modeExitLines(report) + ["", "Not tracked (the agent was not counting):"]
        for cause in UntrackedCause.allCases {
            let spans = report.notTracked.filter { $0.cause == cause.rawValue }
            guard !spans.isEmpty else { continue }
            let total = spans.reduce(0) { $0 + $1.seconds }
            lines.append("  \(cause.words): \(DurationText.format(total)) (" + spans.map { span($0, report) }.joined(separator: ", ") + ")")
        }
        return lines
    }

    /// `Modes left early: Productivity at 09:30 (a 3 min continue, 2 h 29 min left), …`.
    static func modeExitLines(_ report: UsageReport) -> [String] {
        guard !report.modeExits.isEmpty else { return [] }
        return ["Modes left early: " + report.modeExits.map(modeExit).joined(separator: ", ")]
    }

    static func modeExit(_ exit: UsageReport.ModeExitEntry) -> String {
        let name = Mode(rawValue: exit.mode)?.displayName ?? exit.mode
        let what = exit.grantedSeconds > 0 ? "a \(DurationText.spoken(exit.grantedSeconds)) continue" : "ended"
        let left = exit.leftSeconds > 0 ? ", \(DurationText.spoken(exit.leftSeconds)) left" : ""
        return "\(name) at \(LocalTimeText.clock(ofISO8601: exit.at)) (\(what)\(left))"
    }

    static func html(_ report: UsageReport) -> String {
        let exits = report.modeExits.isEmpty ? "" : "<h2>Modes left early</h2>\n<ul id=\"mode-exits\">\n"
            + report.modeExits.map { "<li>\(MarkupText.escape(modeExit($0)))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        guard !report.notTracked.isEmpty else { return exits }
        let items = report.notTracked.map { item in
            let words = UntrackedCause(rawValue: item.cause)?.words ?? item.cause
            return "<li data-seconds=\"\(Int(item.seconds))\" data-cause=\"\(MarkupText.escape(item.cause))\">"
                + "\(MarkupText.escape(span(item, report))): \(MarkupText.escape(words))</li>"
        }
        return exits + "<h2>Not tracked</h2>\n<ul id=\"not-tracked\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }

    /// `14:02–14:35, 33m, SIGTERM`; with the date when the report spans several days.
    static func span(_ item: UsageReport.NotTracked, _ report: UsageReport) -> String {
        let (from, to) = (LocalTimeText.clock(ofISO8601: item.from), LocalTimeText.clock(ofISO8601: item.to))
        let start = report.days.count > 1 || item.from.prefix(10) != item.to.prefix(10) ? "\(item.from.prefix(10)) \(from)" : from
        let detail = item.detail.isEmpty ? "" : ", \(item.detail)"
        return "\(start)–\(to), \(DurationText.format(max(1, item.seconds)))\(detail)"
    }
}
