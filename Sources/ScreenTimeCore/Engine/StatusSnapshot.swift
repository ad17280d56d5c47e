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
        /// `counting`, `ok`, `disabled`, `important` or `essential`.
        public var state: String
        public var continues: Int
    }

    public var mode: String
    public var modeName: String
    /// Why this mode is active, in words.
    public var reason: String
    /// The day's label and when it started (ISO 8601, local).
    public var day: String
    public var dayStart: String
    public var totalSeconds: TimeInterval
    public var focused: AppID?
    /// False while idle, locked or asleep.
    public var active: Bool
    public var apps: [App]
    /// A problem with the config file, with its line, while the last good one is in force.
    public var configProblem: String?
    /// Backends in use, for `doctor` and bars: focus, idle, notifications, display.
    public var backends: [String: String]
}

extension Engine {
    public func status(at now: Date, zone: LocalTimeZone, configProblem: String? = nil,
                       backends: [String: String] = [:]) -> StatusSnapshot {
        var ids = Set(usage.keys)
        if let focused { ids.insert(focused.app.id) }
        let apps = ids.map { id -> StatusSnapshot.App in
            let limit = effectiveLimit(of: id)
            let state: String
            if settings.isEssential(id) { state = "essential" }
            else if limit == nil { state = "important" }
            else if isOverLimit(id, at: now) { state = "disabled" }
            else if isCounting && focused?.app.id == id { state = "counting" }
            else { state = "ok" }
            return StatusSnapshot.App(id: id, name: info(id).name, usedSeconds: used(id, at: now), limitSeconds: limit,
                                      remainingSeconds: remaining(id, at: now).map { max(0, $0) }, state: state,
                                      continues: grants[id, default: 0])
        }.sorted { ($0.usedSeconds, $1.id) > ($1.usedSeconds, $0.id) }
        return StatusSnapshot(
            mode: "standard", modeName: "Standard", reason: "always on when no other mode is active",
            day: settings.dayBoundary.label(of: now, in: zone), dayStart: LocalTimeText.iso8601(dayStart, in: zone),
            totalSeconds: apps.reduce(0) { $0 + $1.usedSeconds }, focused: focused?.app.id, active: active,
            apps: apps, configProblem: configProblem, backends: backends)
    }
}

/// `status` as terminal text, JSON and status-bar formats.
public enum StatusFormat {
    public static func text(_ status: StatusSnapshot, top: Int = 5) -> String {
        var lines = ["Mode: \(status.modeName) (\(status.reason))",
                     "Today: \(DurationText.spoken(status.totalSeconds)) of app time since \(clock(status.dayStart))\(status.active ? "" : ", idle now")"]
        if let problem = status.configProblem { lines.append("Config problem: \(problem) (the last good configuration is in force)") }
        if status.apps.isEmpty { lines.append("No app time yet today.") }
        let shown = status.apps.prefix(top)
        let width = shown.map(\.name.count).max() ?? 0
        for app in shown {
            let limit: String = switch app.state {
            case "important": "important, no limit"
            case "essential": "essential, never restricted"
            case "disabled": "limit \(DurationText.spoken(app.limitSeconds ?? 0)) reached"
            default: "\(DurationText.spoken(app.remainingSeconds ?? 0)) left of \(DurationText.spoken(app.limitSeconds ?? 0))"
            }
            let marker = app.state == "counting" ? "▶" : " "
            lines.append("\(marker) \(app.name.padded(to: width))  \(DurationText.spoken(app.usedSeconds).padded(to: 9, left: true))  \(limit)")
        }
        if status.apps.count > top { lines.append("  … and \(status.apps.count - top) more (screentime report today)") }
        lines.append("Commands: screentime report today · screentime limit set APP 1h · screentime important add APP")
        return lines.joined(separator: "\n")
    }

    public static func json(_ status: StatusSnapshot) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(status)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func decode(_ json: String) throws -> StatusSnapshot {
        try JSONDecoder().decode(StatusSnapshot.self, from: Data(json.utf8))
    }

    private static func clock(_ iso: String) -> String {
        guard let t = iso.firstIndex(of: "T") else { return iso }
        return String(iso[iso.index(after: t)...].prefix(5))
    }
}
