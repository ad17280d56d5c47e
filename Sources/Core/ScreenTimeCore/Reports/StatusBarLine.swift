import FoundationEssentials

/// `status` for a status bar: one line of what matters now, from the agent's status at `now`.
/// Times the line shows are clock times (a limit reached at 14:35, a break until 10:05), which
/// stay true while the user goes on: `status --follow` prints again only when the agent signals a
/// change (focus, mode, a limit reached), not every minute.
public struct StatusBarLine: Equatable, Sendable {
    /// The full text, e.g. `Standard · Firefox: limit at 14:35`. Plain text, not escaped.
    public var text: String
    /// The mode's name alone, for narrow bars.
    public var shortText: String
    /// Several lines: the mode and why, the next change, today's use and the top apps.
    public var tooltip: String
    /// The mode (`productivity`, `wind-down`…), then `over-limit`, `break`, `idle` as they apply.
    public var classes: [String]
    /// Today's use of a limit, 0–100: the focused app's when it has a limit, else the limited app
    /// nearest its limit; 0 when no limit applies.
    public var percentage: Int
    /// The mode's icon (`screentime-productivity`), or `screentime` while no agent runs.
    public var iconName: String
    /// A text colour for bars without classes (i3blocks), light enough for a dark bar.
    public var colour: String

    public init(_ status: StatusSnapshot, now: Date, zone: LocalTimeZone) {
        let mode = Mode(rawValue: status.mode)
        let focusedApp = status.apps.first { $0.id == status.focused }
        let budget = Self.budgetApp(status)
        let clock = { (seconds: TimeInterval) in LocalTimeText.clock(ofISO8601: LocalTimeText.iso8601(now.addingTimeInterval(seconds), in: zone)) }
        var detail: String?
        if let left = status.breakSecondsLeft {
            detail = "break until \(clock(left))"
        } else if let app = focusedApp {
            switch app.state {
            case "counting": detail = app.remainingSeconds.map { "\(app.name): limit at \(clock($0))" }
            case "ok": detail = app.remainingSeconds.map { "\(app.name): \(DurationText.spoken($0)) left" }
            case "disabled": detail = "\(app.name): limit reached"
            case "outside-mode": detail = "\(app.name): after \(status.modeName)"
            default: detail = nil
            }
        }
        text = status.modeName + (detail.map { " · " + $0 } ?? "")
        shortText = status.modeName
        percentage = budget.map(Self.percentage) ?? 0
        let overLimit = focusedApp?.state == "disabled" || budget?.state == "disabled"
        classes = [status.mode] + (overLimit ? ["over-limit"] : []) + (status.breakSecondsLeft != nil ? ["break"] : [])
            + (status.active ? [] : ["idle"])
        iconName = mode?.iconName ?? "screentime"
        colour = mode.map(Self.colour) ?? Self.offColour

        var lines = ["\(status.modeName) mode: \(status.reason)"]
        if let next = status.next {
            let day = next.inSeconds < 86_400 ? "" : " on \(next.at.prefix(10))"
            lines.append("Next: \(next.modeName)\(day) at \(LocalTimeText.clock(ofISO8601: next.at))")
        }
        if let next = status.nextBreakSeconds { lines.append("Next break at \(clock(next))") }
        lines.append("Today as of \(clock(0)): \(DurationText.spoken(status.totalSeconds)) of app time")
        for app in status.apps.prefix(3) {
            let limit = app.limitSeconds.map { " of \(DurationText.spoken($0))" } ?? ""
            lines.append("\(app.name): \(DurationText.spoken(app.usedSeconds))\(limit)")
        }
        if let problem = status.configProblem { lines.append("Config problem: \(problem)") }
        tooltip = lines.joined(separator: "\n")
    }

    /// What a bar shows while no agent runs: nothing counts, said plainly.
    public static let notRunning = StatusBarLine(
        text: "Screen Time off", shortText: "off",
        tooltip: "The screentime agent is not running: nothing is counted or limited. Start it with `screentime agent`, or log in again.",
        classes: ["not-running"], percentage: 0, iconName: "screentime", colour: offColour)

    init(text: String, shortText: String, tooltip: String, classes: [String], percentage: Int, iconName: String, colour: String) {
        (self.text, self.shortText, self.tooltip, self.classes) = (text, shortText, tooltip, classes)
        (self.percentage, self.iconName, self.colour) = (percentage, iconName, colour)
    }

    /// The app whose budget `percentage` tells: the focused one if limited, else the nearest its limit.
    static func budgetApp(_ status: StatusSnapshot) -> StatusSnapshot.App? {
        let limited = status.apps.filter { ($0.limitSeconds ?? 0) > 0 && ["counting", "ok", "disabled"].contains($0.state) }
        return limited.first { $0.id == status.focused } ?? limited.max { percentage($0) < percentage($1) }
    }

    static func percentage(_ app: StatusSnapshot.App) -> Int {
        guard let limit = app.limitSeconds, limit > 0 else { return 0 }
        return Int(min(100, max(0, (app.usedSeconds / limit * 100).rounded(.down))))
    }

    static let offColour = "#9e9e9e"

    static func colour(_ mode: Mode) -> String {
        switch mode {
        case .standard: "#8fb8e8"
        case .productivity: "#b0bcc4"
        case .social: "#f0a860"
        case .windDown: "#b79ad8"
        case .sleep: "#7f9cc8"
        case .wakeUp: "#f0c860"
        case .cheatDay: "#e889b0"
        }
    }
}
