import FoundationEssentials

/// What `screentime status` shows, as the agent reports it over D-Bus (JSON).
public struct StatusSnapshot: Equatable, Codable, Sendable {
    public struct App: Equatable, Codable, Sendable {
        public var id: AppID
        public var name: String
        public var usedSeconds: TimeInterval
        /// nil: no limit (important or essential).
        public var limitSeconds: TimeInterval?
        public var remainingSeconds: TimeInterval?
        /// `counting`, `ok`, `disabled` (limit reached), `outside-mode` (the mode does not include it),
        /// `unlimited` (the mode lifts limits), `important` or `essential`.
        public var state: String
        public var continues: Int
    }

    /// The next mode change: at (ISO 8601, local), in how long, and to what.
    public struct NextChange: Equatable, Codable, Sendable {
        public var at: String
        public var inSeconds: TimeInterval
        public var mode: String
        public var modeName: String
    }

    public var mode: String
    public var modeName: String
    /// Why this mode is active, in words.
    public var reason: String
    public var next: NextChange?
    /// During a Productivity break, the time it has left.
    public var breakSecondsLeft: TimeInterval?
    /// In Productivity, the time until the next break.
    public var nextBreakSeconds: TimeInterval?
    /// The commands that matter in this mode now.
    public var commands: [String]
    /// The day's label and when it started (ISO 8601, local).
    public var day: String
    public var dayStart: String
    public var totalSeconds: TimeInterval
    public var focused: AppID?
    /// False while idle, locked or asleep.
    public var active: Bool
    public var apps: [App]
    /// How long before a limit its countdown begins (the largest of `[general] countdown`; 0 for
    /// none): from then on the widgets show the time left instead of the day's total.
    public var countdownSeconds: TimeInterval? = nil
    /// A problem with the config file, with its line, while the last good one is in force.
    public var configProblem: String?
    /// The bedtime and wake time Wind Down, Sleep and Wake Up follow, and where they come from.
    public var sleepTimes: String? = nil
    /// Why usage is not being saved, and since when; nil while it is. Time still counts meanwhile.
    public var savingProblem: String? = nil
    /// Backends in use, for `doctor` and bars: focus, idle, notifications, display.
    public var backends: [String: String]
    /// Measurements of the agent itself, e.g. `longestLoopTurnMs` (its longest piece of work between two polls).
    public var diagnostics: [String: Double]? = nil
}

extension Engine {
    public func status(at now: Date, zone: LocalTimeZone, configProblem: String? = nil,
                       backends: [String: String] = [:]) -> StatusSnapshot {
        // The apps used on the other joined devices count today here too.
        var ids = Set(usage.keys).union(elsewhere.apps.keys)
        if let focused { ids.insert(focused.app.id) }
        let apps = ids.map { id -> StatusSnapshot.App in
            let limit = effectiveLimit(of: id)
            let state: String
            if settings.isEssential(info(id)) { state = "essential" }
            else if !modeAllows(id, at: now) { state = "outside-mode" }
            else if !profile.allowedApps.limitsApply { state = "unlimited" }
            else if limit == nil { state = "important" }
            else if isOverLimit(id, at: now), !modeBypassCovers(id, at: now) { state = "disabled" }
            else if isCounting && focused?.app.id == id { state = "counting" }
            else { state = "ok" }
            return StatusSnapshot.App(id: id, name: info(id).name, usedSeconds: used(id, at: now), limitSeconds: limit,
                                      remainingSeconds: remaining(id, at: now).map { max(0, $0) }, state: state,
                                      continues: grants[id, default: []].count)
        }.sorted { ($0.usedSeconds, $1.id) > ($1.usedSeconds, $0.id) }
        let mode = decision.mode
        let next = decision.next.map {
            StatusSnapshot.NextChange(at: LocalTimeText.iso8601($0.at, in: zone), inSeconds: max(0, $0.at.timeIntervalSince(now)),
                                      mode: $0.mode.rawValue, modeName: $0.mode.displayName)
        }
        var breakLeft: TimeInterval?
        var nextBreak: TimeInterval?
        if mode == .productivity {
            switch decision.productivityBreak {
            case .onBreak(_, let until)? where decision.isOnBreak(at: now): breakLeft = until.timeIntervalSince(now)
            case .working(let at)? where at > now: nextBreak = at.timeIntervalSince(now)
            default: break
            }
        }
        return StatusSnapshot(
            mode: mode.rawValue, modeName: mode.displayName, reason: decision.reason.explanation(zone: zone),
            next: next, breakSecondsLeft: breakLeft, nextBreakSeconds: nextBreak,
            commands: StatusFormat.commands(for: mode, onBreak: breakLeft != nil),
            day: settings.dayBoundary.label(of: now, in: zone), dayStart: LocalTimeText.iso8601(dayStart, in: zone),
            totalSeconds: apps.reduce(0) { $0 + $1.usedSeconds }, focused: focused?.app.id, active: active,
            apps: apps, countdownSeconds: settings.countdownMarks.max() ?? 0, configProblem: configProblem, backends: backends)
    }
}

/// `status` as terminal text, JSON and status-bar formats.
public enum StatusFormat {
    public static func text(_ status: StatusSnapshot, top: Int = 5) -> String {
        var lines = ["Mode: \(status.modeName) (\(status.reason))"]
        if let left = status.breakSecondsLeft { lines.append("Break: \(DurationText.spoken(left.rounded(.up))) left") }
        if let next = status.nextBreakSeconds { lines.append("Next break in \(DurationText.spoken(next.rounded(.up)))") }
        if let next = status.next {
            let when = next.inSeconds < 86_400 ? "at \(LocalTimeText.clock(ofISO8601: next.at)) (in \(DurationText.spoken(next.inSeconds.rounded(.up))))"
                                               : "on \(next.at.prefix(10)) at \(LocalTimeText.clock(ofISO8601: next.at))"
            lines.append("Next: \(next.modeName) \(when)")
        }
        if let sleep = status.sleepTimes { lines.append("Sleep times: \(sleep)") }
        lines += [
                     "Today: \(DurationText.spoken(status.totalSeconds)) of app time since \(LocalTimeText.clock(ofISO8601: status.dayStart))\(status.active ? "" : ", idle now")"]
        if let problem = status.savingProblem { lines.append("Saving problem: usage is not being saved \(problem) (time still counts and is kept in memory until it can be)") }
        if let problem = status.configProblem { lines.append("Config problem: \(problem) (the last good configuration is in force)") }
        if status.apps.isEmpty { lines.append("No app time yet today.") }
        let shown = status.apps.prefix(top)
        let width = shown.map(\.name.count).max() ?? 0
        for app in shown {
            let limit: String = switch app.state {
            case "important": "important, no limit"
            case "essential": "essential, never restricted"
            case "disabled": "limit \(DurationText.spoken(app.limitSeconds ?? 0)) reached"
            case "outside-mode": "waits until \(status.modeName) ends"
            case "unlimited": "no limit today"
            default: "\(DurationText.spoken(app.remainingSeconds ?? 0)) left of \(DurationText.spoken(app.limitSeconds ?? 0))"
            }
            let marker = app.state == "counting" ? "▶" : " "
            lines.append("\(marker) \(app.name.padded(to: width))  \(DurationText.spoken(app.usedSeconds).padded(to: 9, left: true))  \(limit)")
        }
        if status.apps.count > top { lines.append("  … and \(status.apps.count - top) more (screentime report today)") }
        lines.append("Commands: " + status.commands.joined(separator: " · "))
        return lines.joined(separator: "\n")
    }

    /// The commands that matter in `mode` (DESIGN.md's widget buttons first).
    public static func commands(for mode: Mode, onBreak: Bool = false) -> [String] {
        switch mode {
        case .standard: ["screentime report today", "screentime limit set APP 1h", "screentime important add APP"]
        case .productivity: onBreak ? ["screentime mode auto", "screentime report today"]
                                    : ["screentime break", "screentime mode auto", "screentime continue APP"]
        case .social: ["screentime mode auto", "screentime group add social-apps APP", "screentime continue APP"]
        case .windDown: ["screentime bedtime", "screentime stay-up", "screentime continue APP"]
        case .sleep: ["screentime stay-up", "screentime mode auto", "screentime continue APP"]
        case .wakeUp: ["screentime start-day", "screentime rundown", "screentime report yesterday"]
        case .cheatDay: ["screentime report today", "screentime cheat-day list"]
        }
    }

    /// The document, indented; `oneLine` gives it on a single line (a line per change when following).
    public static func json(_ status: StatusSnapshot, oneLine: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = oneLine ? [.sortedKeys] : [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(status)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func decode(_ json: String) throws -> StatusSnapshot {
        try JSONDecoder().decode(StatusSnapshot.self, from: Data(json.utf8))
    }
}
