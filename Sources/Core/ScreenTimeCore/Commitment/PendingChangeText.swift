import FoundationEssentials

/// The words for a pending change: what it will be, when, and what holds until then
/// ("firefox: 2h a day from tomorrow, 04:00; today it stays 1h").
public enum PendingChangeText {
    /// `settings` are those in force (the held value is theirs).
    public static func line(_ change: PendingChange, settings: Settings, now: Date, zone: LocalTimeZone) -> String {
        let when = self.when(change.due, now: now, zone: zone)
        let until = change.due.timeIntervalSince(now) < 86_400 && zone.localDate(of: change.due) != zone.localDate(of: now)
            ? "today" : "until then"
        guard let facet = SettingsFacet(id: change.facet) else { return "\(change.facet): changes \(when)" }
        switch facet {
        case .defaultLimit:
            return "default limit: \(limit(change.target)) a day from \(when); \(until) it stays \(limit(change.held))"
        case .limitScope:
            return "default limit's scope: \(change.target ?? "leisure") from \(when); \(until) it stays \(change.held ?? "all")"
        case .limit(let key):
            let name = AppGroup(rawValue: key) != nil ? "\(key) (group)" : key
            let fallback = AppGroup(rawValue: key) != nil ? "no shared limit" : "the default (\(DurationText.format(settings.defaultLimit)))"
            let target = change.target.map { "\(limit($0)) a day" } ?? fallback
            let held = change.held.map(limit) ?? DurationText.format(settings.defaultLimit)
            return "\(name): \(target) from \(when); \(until) it stays \(held)"
        case .exemption(let kind, let app):
            let what = kind == .important ? "important (no limit)" : "essential (never restricted)"
            return change.target == nil ? "\(app): no longer \(kind.rawValue) from \(when)"
                                        : "\(app): \(what) from \(when); \(until) its limits hold"
        case .groupMember(let group, let app):
            switch change.target {
            case GroupEdit.inGroup?: return "\(app): in \(group.rawValue) from \(when); \(until) it is not"
            case GroupEdit.outOfGroup?: return "\(app): out of \(group.rawValue) from \(when); \(until) it stays in"
            default: return "\(app): in \(group.rawValue) as its categories say from \(when); \(until) it stays \(change.held == GroupEdit.inGroup ? "in" : "out")"
            }
        case .titleRule(let name):
            let stays = change.held.map { "it stays \($0)" } ?? "it stays off"
            return change.target.map { "title rule \(name): \($0) from \(when); \(until) \(stays)" }
                ?? "title rule \(name): off from \(when); \(until) \(stays)"
        case .mode(let mode):
            let on = change.target != nil
            return "\(mode.displayName): \(on ? "on" : "off") from \(when); \(until) it stays \(on ? "off" : "on")"
        case .automaticModes:
            return "automatic Wind Down, Sleep and Wake Up: off from \(when); \(until) they stay on"
        case .schedule(let id, let value):
            return "schedule \(id) (\(value)): removed from \(when); \(until) it stays"
        case .calendar(let path):
            return "calendar \(path): removed from \(when); \(until) its events hold"
        case .continueFor:
            return "Continue grants \(limit(change.target)) from \(when); \(until) it stays \(limit(change.held))"
        case .bypass(let mode):
            return "\(mode.displayName)'s way through: \(limit(change.target)) from \(when); \(until) it stays \(limit(change.held))"
        case .loosen:
            return "[commitment] loosen = \(change.target ?? "next-day") from \(when); \(until) it stays \(change.held ?? "next-day")"
        }
    }

    /// `today, 17:30`, `tomorrow, 04:00` or `2026-12-09 04:00`.
    public static func when(_ instant: Date, now: Date, zone: LocalTimeZone) -> String {
        let local = zone.localDateTime(of: instant)
        let today = zone.localDate(of: now)
        if local.date == today { return "today, \(local.time)" }
        if local.date == today.adding(days: 1) { return "tomorrow, \(local.time)" }
        return "\(local.date) \(local.time)"
    }

    /// A short id a user can type to take the change back: its facet id.
    public static func id(_ change: PendingChange) -> String { change.facet }

    private static func limit(_ text: String?) -> String {
        text.flatMap(Double.init).map(DurationText.format) ?? "none"
    }
}
