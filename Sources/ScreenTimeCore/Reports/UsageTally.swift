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
    /// Time per weekday (Monday first) and hour of the clock, for the heat map.
    var hours = Array(repeating: Array(repeating: TimeInterval(0), count: 24), count: 7)

    init(_ history: UsageReport.History, idleThreshold: TimeInterval, boundary: DayBoundary, zone: LocalTimeZone) {
        // Sums go to arrays indexed by the day's position and the app's (or mode's) slot, and
        // become dictionaries by label once at the end: a year holds some 70 000 intervals.
        var labels: [String] = []
        var appSlots: [AppID: Int] = [:], appTimes: [[TimeInterval]] = []
        var modeSlots: [String: Int] = [:], modeTimes: [[TimeInterval]] = []
        var dayPickups: [Int] = [], daySwitches: [Int] = []
        var lastEnd = history.lastEndBefore
        var lastApp: AppID?
        var dayEnd = Date.distantPast
        func enterDay(of instant: Date) {
            labels.append(boundary.label(of: instant, in: zone))
            dayEnd = boundary.end(of: instant, in: zone)
            dayPickups.append(0)
            daySwitches.append(0)
            for slot in appTimes.indices { appTimes[slot].append(0) }
            for slot in modeTimes.indices { modeTimes[slot].append(0) }
        }
        for interval in history.intervals {
            var start = interval.start
            if start >= dayEnd { enterDay(of: start) }
            if lastEnd.map({ start.timeIntervalSince($0) >= idleThreshold }) ?? true {
                dayPickups[labels.count - 1] += 1
            } else if interval.app != lastApp {
                daySwitches[labels.count - 1] += 1
            }
            lastEnd = interval.end
            lastApp = interval.app
            let app = appSlots[interval.app] ?? {
                appTimes.append(Array(repeating: 0, count: labels.count))
                appSlots[interval.app] = appTimes.count - 1
                return appTimes.count - 1
            }()
            let mode = modeSlots[interval.mode] ?? {
                modeTimes.append(Array(repeating: 0, count: labels.count))
                modeSlots[interval.mode] = modeTimes.count - 1
                return modeTimes.count - 1
            }()
            // Split at day boundaries so each day gets its own part.
            while start < interval.end {
                if start >= dayEnd { enterDay(of: start) }
                let end = min(interval.end, dayEnd)
                appTimes[app][labels.count - 1] += end.timeIntervalSince(start)
                modeTimes[mode][labels.count - 1] += end.timeIntervalSince(start)
                addHours(from: start, to: end, zone: zone)
                start = end
            }
        }
        func byLabel<Value: Numeric>(_ values: [Value]) -> [String: Value] {
            var result: [String: Value] = [:]
            for (day, value) in values.enumerated() where value != 0 { result[labels[day], default: 0] += value }
            return result
        }
        apps = appSlots.mapValues { byLabel(appTimes[$0]) }
        modes = modeSlots.mapValues { byLabel(modeTimes[$0]) }
        pickups = byLabel(dayPickups)
        switches = byLabel(daySwitches)
    }

    /// Adds `[start, end)` to the hours of the clock it covers, in local time.
    private mutating func addHours(from start: Date, to end: Date, zone: LocalTimeZone) {
        let offset = Double(zone.utcOffset(at: start))
        var local = start.timeIntervalSince1970 + offset
        let localEnd = end.timeIntervalSince1970 + offset
        while local < localEnd {
            let hourEnd = min(localEnd, ((local / 3600).rounded(.down) + 1) * 3600)
            let day = Int((local / 86_400).rounded(.down))
            // 1970-01-01 was a Thursday: day 0 is weekday 3 counting Monday as 0.
            hours[((day + 3) % 7 + 7) % 7][Int(local.truncatingRemainder(dividingBy: 86_400) / 3600)] += hourEnd - local
            local = hourEnd
        }
    }
}
