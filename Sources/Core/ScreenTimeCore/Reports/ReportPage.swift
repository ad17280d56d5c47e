import FoundationEssentials

/// A report as one self-contained HTML page with inline SVG charts (no script, no link, no
/// font: it opens offline): the days as bars stacked by group, the top apps, a heat map of the
/// hours of the week, the continues by mode. Every bar and cell carries its numbers
/// (`data-seconds`, `data-count`) and a tooltip; names are escaped, never interpreted.
public enum ReportPage {
    public static func html(_ report: UsageReport) -> String {
        let span = report.days.count == 1 ? report.days[0].date : "\(report.days.first!.date) to \(report.days.last!.date)"
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Screen time: \(MarkupText.escape(report.title)) (\(span))</title>
            <style>body{font:15px sans-serif;margin:2em auto;max-width:60em;color:#222}svg{display:block;margin:1em 0}
            text{font:12px sans-serif;fill:#444}\(groupStyles)</style></head><body>
            <h1>\(MarkupText.escape(report.title)) (\(span))</h1>
            <p>Total \(DurationText.spoken(report.totalSeconds))\(report.days.count > 1 ? ", \(DurationText.spoken(report.dailyAverageSeconds)) a day on average" : ""); \
            the period before: \(DurationText.spoken(report.previous.seconds)). \
            Pickups \(report.pickups) (before: \(report.previous.pickups)), switches \(report.switches) (before: \(report.previous.switches)).</p>

            """
        page += "<h2>Days</h2>\n" + days(report) + "<h2>Top apps</h2>\n" + apps(report)
        page += "<h2>Hours of the week</h2>\n" + heatMap(report) + "<h2>Continues taken</h2>\n" + continues(report)
        page += NotTrackedFormat.html(report)
        return page + "</body></html>\n"
    }

    static let groupColours: [(String, String)] = [
        ("productivity", "#3b6fb6"), ("communication", "#3a9a5b"), ("content", "#9b59b6"), ("social-apps", "#2aa1a8"),
        ("browsers", "#d8a21b"), ("clock", "#888888"), ("system", "#666666"), (ReportGroup.other, "#b0b0b0"),
    ]

    private static var groupStyles: String {
        groupColours.map { ".g-\($0.0){fill:\($0.1)}" }.joined()
    }

    /// One column per day, its groups stacked, scaled to the longest day.
    private static func days(_ report: UsageReport) -> String {
        let height = 160.0, column = max(4.0, min(40.0, 720.0 / Double(report.days.count)))
        let longest = max(1, report.days.map(\.seconds).max() ?? 1)
        var svg = "<svg id=\"days\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(column * Double(report.days.count)) + 10)\" height=\"\(Int(height) + 20)\">\n"
        for (index, day) in report.days.enumerated() {
            var top = height
            for group in report.groups {
                guard let seconds = group.days[day.date], seconds > 0 else { continue }
                let h = seconds / longest * height
                top -= h
                svg += "<rect class=\"g-\(MarkupText.escape(group.name))\" data-day=\"\(day.date)\" data-group=\"\(MarkupText.escape(group.name))\" data-seconds=\"\(seconds.saturatedSeconds())\" "
                    + "x=\"\(number(Double(index) * column))\" y=\"\(number(top))\" width=\"\(number(column * 0.8))\" height=\"\(number(h))\">"
                    + "<title>\(day.date) \(MarkupText.escape(group.name)): \(DurationText.spoken(seconds))</title></rect>\n"
            }
        }
        return svg + "</svg>\n" + legend(report)
    }

    private static func legend(_ report: UsageReport) -> String {
        "<p>" + report.groups.map { "<svg width=\"12\" height=\"12\" style=\"display:inline\"><rect class=\"g-\(MarkupText.escape($0.name))\" width=\"12\" height=\"12\"/></svg> \(MarkupText.escape($0.name)) \(DurationText.spoken($0.seconds))" }
            .joined(separator: " &#160; ") + "</p>\n"
    }

    /// The ten apps used most, as bars.
    private static func apps(_ report: UsageReport) -> String {
        let top = report.apps.prefix(10), most = max(1, top.first?.seconds ?? 1)
        var svg = "<svg id=\"apps\" xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"\(top.count * 22 + 4)\">\n"
        for (index, app) in top.enumerated() {
            let y = Double(index * 22)
            svg += "<text x=\"0\" y=\"\(number(y + 15))\">\(MarkupText.escape(String(app.name.prefix(28))))</text>"
                + "<rect class=\"g-\(MarkupText.escape(app.group))\" data-app=\"\(MarkupText.escape(app.id.rawValue))\" data-seconds=\"\(app.seconds.saturatedSeconds())\" "
                + "x=\"200\" y=\"\(number(y + 3))\" width=\"\(number(app.seconds / most * 420))\" height=\"16\"><title>\(MarkupText.escape(app.name)): \(DurationText.spoken(app.seconds))</title></rect>"
                + "<text x=\"\(number(app.seconds / most * 420 + 206))\" y=\"\(number(y + 15))\">\(DurationText.spoken(app.seconds))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// Weekdays by hours of the clock, darker where more time was spent.
    private static func heatMap(_ report: UsageReport) -> String {
        let most = max(1, report.hours.flatMap { $0 }.max() ?? 1)
        var svg = "<svg id=\"hours\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(40 + 24 * 26)\" height=\"\(7 * 24 + 20)\">\n"
        for hour in stride(from: 0, to: 24, by: 3) { svg += "<text x=\"\(40 + hour * 26)\" y=\"\(7 * 24 + 15)\">\(hour):00</text>" }
        for (weekday, hours) in report.hours.enumerated() {
            let name = Weekday(rawValue: weekday + 1)!.name
            svg += "\n<text x=\"0\" y=\"\(weekday * 24 + 16)\">\(name.prefix(3))</text>"
            for (hour, seconds) in hours.enumerated() {
                svg += "<rect data-weekday=\"\(name.lowercased())\" data-hour=\"\(hour)\" data-seconds=\"\(seconds.saturatedSeconds())\" x=\"\(40 + hour * 26)\" y=\"\(weekday * 24)\" "
                    + "width=\"24\" height=\"22\" fill=\"#3b6fb6\" fill-opacity=\"\(number(0.05 + 0.95 * seconds / most))\"><title>\(name) \(hour):00: \(DurationText.spoken(seconds))</title></rect>"
            }
        }
        return svg + "\n</svg>\n"
    }

    /// How many continues in each mode, and each one listed.
    private static func continues(_ report: UsageReport) -> String {
        guard !report.bypasses.isEmpty else { return "<p>None.</p>\n" }
        var perMode: [String: Int] = [:]
        for event in report.bypasses { perMode[event.mode ?? "", default: 0] += 1 }
        let modes = perMode.sorted { ($0.value, $1.key) > ($1.value, $0.key) }, most = Double(modes[0].value)
        var svg = "<svg id=\"continues\" xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"\(modes.count * 22 + 4)\">\n"
        for (index, mode) in modes.enumerated() {
            let y = Double(index * 22), name = MarkupText.escape(Mode(rawValue: mode.key)?.displayName ?? mode.key)
            svg += "<text x=\"0\" y=\"\(number(y + 15))\">\(name)</text><rect data-mode=\"\(MarkupText.escape(mode.key))\" data-count=\"\(mode.value)\" x=\"200\" y=\"\(number(y + 3))\" "
                + "width=\"\(number(Double(mode.value) / most * 420))\" height=\"16\" fill=\"#3b6fb6\"><title>\(name): \(mode.value)</title></rect>"
                + "<text x=\"\(number(Double(mode.value) / most * 420 + 206))\" y=\"\(number(y + 15))\">\(mode.value)</text>\n"
        }
        let names = Dictionary(report.apps.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let list = report.bypasses.map {
            "<li>\(MarkupText.escape(names[$0.app] ?? $0.app.rawValue)), \($0.at.prefix(10)) \(LocalTimeText.clock(ofISO8601: $0.at)), "
                + "\(MarkupText.escape(Mode(rawValue: $0.mode ?? "")?.displayName ?? $0.mode ?? "")): +\(DurationText.spoken($0.seconds))</li>"
        }
        return svg + "</svg>\n<ul>\n" + list.joined(separator: "\n") + "\n</ul>\n"
    }

    private static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded().saturatedSeconds()
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
