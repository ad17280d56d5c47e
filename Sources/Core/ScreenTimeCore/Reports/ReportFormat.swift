import FoundationEssentials

/// A report as terminal text with bars, JSON or CSV, all carrying the same data.
public enum ReportFormat {
    /// Its names come from outside (windows, desktop entries, the store), so they are made
    /// printable here (`TerminalText`): the colours are the only escape sequences it holds.
    public static func text(_ report: UsageReport, style: TerminalStyle) -> String {
        var lines: [String] = []
        let span = report.days.count == 1 ? report.days[0].date : "\(report.days.first!.date) to \(report.days.last!.date)"
        lines.append("\(report.title) (\(span))")
        let before = report.days.count == 1 ? "the day before" : "the \(report.days.count) days before"
        var total = "Total: \(DurationText.spoken(report.totalSeconds))"
        if report.days.count > 1 { total += ", \(DurationText.spoken(report.dailyAverageSeconds)) a day on average" }
        lines.append(total + "  (\(change(report.totalSeconds - report.previous.seconds)) against \(before))")
        lines.append("Pickups: \(report.pickups) (\(count(report.pickups - report.previous.pickups)))  "
                     + "Switches: \(report.switches) (\(count(report.switches - report.previous.switches)))")
        guard !report.apps.isEmpty else {
            lines.append("No app time recorded.")
            return (lines + NotTrackedFormat.lines(report)).joined(separator: "\n")
        }
        lines += section("Apps", report.apps.map { ($0.name, $0.seconds, $0.group) }, style: style)
        lines += section("Groups", report.groups.map { ($0.name, $0.seconds, $0.name) }, style: style)
        lines += section("Modes", report.modes.map { (modeName($0.name), $0.seconds, nil) }, style: style)
        if report.days.count > 1 {
            let rows = report.days.map { day in
                (dayName(day.date), day.seconds, nil as String?, "  \(plural(day.pickups, "pickup")), \(plural(day.switches, "switch"))")
            }
            lines += section("Days", rows, style: style)
        }
        if let devices = report.devices {
            lines += section("Computers", devices.map { ($0.name, $0.seconds, nil as String?) }, style: style)
        }
        if !report.limitsReached.isEmpty || !report.bypasses.isEmpty { lines.append("") }
        if !report.limitsReached.isEmpty {
            lines.append("Limits reached: " + report.limitsReached.map { "\(TerminalText.printable(name(of: $0.app, in: report))) at \(when($0.at, report))" }.joined(separator: ", "))
        }
        if !report.bypasses.isEmpty {
            lines.append("Continues taken: " + report.bypasses.map {
                "\(TerminalText.printable(name(of: $0.app, in: report))) at \(when($0.at, report)) in \(TerminalText.printable(modeName($0.mode ?? ""))) (+\(DurationText.spoken($0.seconds)))"
            }.joined(separator: ", "))
        }
        lines += NotTrackedFormat.lines(report)
        return lines.joined(separator: "\n")
    }

    /// A heading and a row per item: the name, the time, a bar scaled to the largest that fits
    /// the terminal with what follows it.
    private static func section(_ heading: String, _ rows: [(name: String, seconds: TimeInterval, group: String?)], style: TerminalStyle) -> [String] {
        section(heading, rows.map { ($0.name, $0.seconds, $0.group, "") }, style: style)
    }

    private static func section(_ heading: String, _ rows: [(name: String, seconds: TimeInterval, group: String?, after: String)], style: TerminalStyle) -> [String] {
        let rows = rows.map { (name: TerminalText.printable($0.name), seconds: $0.seconds, group: $0.group, after: $0.after) }
        let nameWidth = min(24, rows.map(\.name.count).max() ?? 0)
        let afterWidth = rows.map(\.after.count).max() ?? 0
        // 2 indent, 2 and 2 around the 10 of the time.
        let barWidth = max(5, style.width - nameWidth - afterWidth - 16)
        let most = rows.map(\.seconds).max() ?? 0
        var lines = ["", heading]
        for row in rows {
            let name = String(row.name.prefix(nameWidth)).padded(to: nameWidth)
            let time = DurationText.spoken(row.seconds).padded(to: 10, left: true)
            // Rows read from a damaged store may hold anything: the bar stays within its width.
            let share = most > 0 ? row.seconds / most : 0
            let blocks = min(barWidth, max(row.seconds > 0 ? 1 : 0, (share * Double(barWidth)).saturatedSeconds()))
            var bar = String(repeating: "█", count: blocks)
            if style.colour, let colour = row.group.flatMap(colourCode) { bar = "\u{1B}[\(colour)m" + bar + "\u{1B}[0m" }
            let after = row.after.isEmpty ? "" : String(repeating: " ", count: barWidth - blocks) + row.after
            lines.append("  \(name)  \(time)  \(bar)\(after)")
        }
        return lines
    }

    /// ANSI colours per group (none blames: content is not red).
    private static func colourCode(_ group: String) -> String? {
        switch AppGroup(rawValue: group) {
        case .productivity: "34"
        case .communication: "32"
        case .content: "35"
        case .socialApps: "36"
        case .browsers: "33"
        case .clock, .system: "90"
        case nil: nil
        }
    }

    /// As `JSONEncoder` writes the report with sorted keys, pretty-printed (`ReportJSON`).
    public static func json(_ report: UsageReport) -> String { ReportJSON.text(of: report) }

    /// One table for everything, a row per fact: `kind` says which (`day`, `pickups`, `switches`,
    /// `app`, `group`, `mode`, `hour` (a weekday's hour of the clock), `continue`, `limit`, and `previous-…` for the period before).
    public static func csv(_ report: UsageReport) -> String {
        var rows = ["kind,date,at,id,name,mode,seconds,count"]
        func row(_ kind: String, _ date: String, at: String = "", id: String = "", name: String = "", mode: String = "",
                 seconds: TimeInterval? = nil, count: Int? = nil) {
            rows.append([kind, date, at, field(id), field(name), field(mode),
                         seconds.map { String($0.saturatedSeconds()) } ?? "", count.map(String.init) ?? ""].joined(separator: ","))
        }
        row("previous-total", report.previous.from, seconds: report.previous.seconds)
        row("previous-pickups", report.previous.from, count: report.previous.pickups)
        row("previous-switches", report.previous.from, count: report.previous.switches)
        for day in report.days {
            row("day", day.date, seconds: day.seconds)
            row("pickups", day.date, count: day.pickups)
            row("switches", day.date, count: day.switches)
            for app in report.apps { if let seconds = app.days[day.date] { row("app", day.date, id: app.id.rawValue, name: app.name, seconds: seconds) } }
            for group in report.groups { if let seconds = group.days[day.date] { row("group", day.date, id: group.name, seconds: seconds) } }
            for mode in report.modes { if let seconds = mode.days[day.date] { row("mode", day.date, mode: mode.name, seconds: seconds) } }
        }
        for (weekday, hours) in report.hours.enumerated() {
            for (hour, seconds) in hours.enumerated() where seconds > 0 {
                row("hour", "", id: Weekday(rawValue: weekday + 1)!.shortName, name: String(hour), seconds: seconds)
            }
        }
        for event in report.bypasses {
            row("continue", event.day, at: event.at, id: event.app.rawValue, name: name(of: event.app, in: report),
                mode: event.mode ?? "", seconds: event.seconds)
        }
        for event in report.limitsReached {
            row("limit", event.day, at: event.at, id: event.app.rawValue, name: name(of: event.app, in: report), seconds: event.seconds)
        }
        return rows.joined(separator: "\n")
    }

    private static func change(_ seconds: TimeInterval) -> String {
        (seconds < 0 ? "-" : "+") + DurationText.spoken(abs(seconds))
    }

    private static func count(_ difference: Int) -> String {
        (difference < 0 ? "-" : "+") + String(abs(difference))
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)\(noun.hasSuffix("h") ? "es" : "s")"
    }

    private static func modeName(_ mode: String) -> String {
        Mode(rawValue: mode)?.displayName ?? mode
    }

    private static func dayName(_ date: String) -> String {
        (CivilDate(parsing: date).map { $0.weekday.name.prefix(3) + " " } ?? "") + date
    }

    /// The clock time, with the date when the report spans several days.
    private static func when(_ iso: String, _ report: UsageReport) -> String {
        let clock = LocalTimeText.clock(ofISO8601: iso)
        return report.days.count == 1 ? clock : "\(iso.prefix(10)) \(clock)"
    }

    /// A CSV field (RFC 4180), quoted when it holds a comma, a quote or a line break. Works on
    /// UTF-8 bytes: "\r\n", or a quote or comma followed by a combining mark, is one `Character`
    /// that equals none of them, yet a CSV reader sees the bare byte.
    private static func field(_ text: String) -> String {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        guard text.utf8.contains(where: special.contains) else { return text }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
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
