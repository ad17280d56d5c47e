import FoundationEssentials

/// Time per app and per mode, pickups and switches, per day, from intervals in order of start.
///
/// A **pickup** is an interval that begins at least the idle threshold (`idle-after`) after the
/// previous one ended, or with none before it: the screen was locked, the machine asleep, or
/// nobody touched it for that long (the agent counts nothing then, so these are the gaps between
/// intervals). A **switch** is an interval of another app than the one before, without a pickup
/// between them. Each belongs to the day its interval starts in.
struct UsageTally {
    var apps: [AppID: [String: TimeInterval]] = [:]
    var modes: [String: [String: TimeInterval]] = [:]
    var pickups: [String: Int] = [:]
    var switches: [String: Int] = [:]

    init(_ history: UsageReport.History, idleThreshold: TimeInterval, boundary: DayBoundary, zone: LocalTimeZone) {
        var lastEnd = history.lastEndBefore
        var lastApp: AppID?
        // Labels are asked for once per day, not once per interval.
        var dayEnd = Date.distantPast
        var label = ""
        for interval in history.intervals {
            var start = interval.start
            if start >= dayEnd {
                label = boundary.label(of: start, in: zone)
                dayEnd = boundary.end(of: start, in: zone)
            }
            if lastEnd.map({ start.timeIntervalSince($0) >= idleThreshold }) ?? true {
                pickups[label, default: 0] += 1
            } else if interval.app != lastApp {
                switches[label, default: 0] += 1
            }
            lastEnd = interval.end
            lastApp = interval.app
            // Split at day boundaries so each day gets its own part.
            while start < interval.end {
                if start >= dayEnd {
                    label = boundary.label(of: start, in: zone)
                    dayEnd = boundary.end(of: start, in: zone)
                }
                let end = min(interval.end, dayEnd)
                apps[interval.app, default: [:]][label, default: 0] += end.timeIntervalSince(start)
                modes[interval.mode, default: [:]][label, default: 0] += end.timeIntervalSince(start)
                start = end
            }
        }
    }
}
