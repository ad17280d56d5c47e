import FoundationEssentials

/// A report as terminal text with bars, JSON or CSV.
public enum ReportFormat {
    public static func text(_ report: UsageReport) -> String {
        var lines: [String] = []
        let span = report.days.count == 1 ? report.days[0] : "\(report.days.first!) to \(report.days.last!)"
        lines.append("\(report.title) (\(span))")
        var total = "Total: \(DurationText.spoken(report.totalSeconds))"
        if report.previousTotalSeconds > 0 || report.totalSeconds > 0 {
            let change = report.totalSeconds - report.previousTotalSeconds
            let sign = change < 0 ? "-" : "+"
            total += "  (\(sign)\(DurationText.spoken(abs(change))) against the \(report.days.count == 1 ? "day" : "\(report.days.count) days") before)"
        }
        lines.append(total)
        guard !report.apps.isEmpty else {
            lines.append("No app time recorded.")
            return lines.joined(separator: "\n")
        }
        lines.append("")
        let nameWidth = min(24, report.apps.map(\.name.count).max() ?? 0)
        let most = report.apps.map(\.seconds).max() ?? 1
        for app in report.apps {
            let name = String(app.name.prefix(nameWidth)).padded(to: nameWidth)
            let time = DurationText.spoken(app.seconds).padded(to: 9, left: true)
            // Rows read from a damaged store may hold anything: the bar stays 1 to 30 blocks.
            let share = most > 0 ? app.seconds / most : 0
            let bar = String(repeating: "█", count: min(30, max(1, (share * 30).saturatedSeconds())))
            lines.append("  \(name)  \(time)  \(bar)")
        }
        if !report.limitsReached.isEmpty {
            lines.append("")
            lines.append("Limits reached: " + report.limitsReached.map { "\(name(of: $0.app, in: report)) at \(LocalTimeText.clock(ofISO8601: $0.at))" }.joined(separator: ", "))
        }
        if !report.bypasses.isEmpty {
            lines.append("Continues taken: " + report.bypasses.map { "\(name(of: $0.app, in: report)) at \(LocalTimeText.clock(ofISO8601: $0.at)) (+\(DurationText.spoken($0.seconds)))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    public static func json(_ report: UsageReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `date,app,name,seconds`, one row per app and day.
    public static func csv(_ report: UsageReport) -> String {
        var rows = ["date,app,name,seconds"]
        for day in report.days {
            for app in report.apps {
                if let seconds = app.days[day] { rows.append("\(day),\(field(app.id.rawValue)),\(field(app.name)),\(seconds.saturatedSeconds())") }
            }
        }
        return rows.joined(separator: "\n")
    }

    private static func field(_ text: String) -> String {
        text.contains(where: { ",\"\n".contains($0) }) ? "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : text
    }

    private static func name(of app: AppID, in report: UsageReport) -> String {
        report.apps.first { $0.id == app }?.name ?? app.rawValue
    }

}

extension String {
    /// Padded with spaces to `width` columns (on the left for numbers in columns).
    public func padded(to width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - count))
        return left ? fill + self : self + fill
    }
}
