import FoundationEssentials

/// Time per app and per mode, pickups and switches, per day, from intervals added in order of
/// start: a year of history streams through it from the store, never held as a list.
///
/// A **pickup** is an interval that begins at least the idle threshold (`idle-after`) after the
/// previous one ended, or with none before it: the screen was locked, the machine asleep, or
/// nobody touched it for that long (the agent counts nothing then, so these are the gaps between
/// intervals). A **switch** is an interval of another app than the one before, without a pickup
/// between them. Each belongs to the day its interval starts in.
public struct UsageTally {
    let idleThreshold: TimeInterval
    let boundary: DayBoundary
    let zone: LocalTimeZone
    // Sums go to arrays indexed by the day's position and the app's (or mode's) slot, and become
    // dictionaries by label once at the end: a year holds some 70 000 intervals.
    private var labels: [String] = []
    private var appSlots: [AppID: Int] = [:], appTimes: [[TimeInterval]] = []
    private var recentApps: [(app: AppID, slot: Int)] = []
    private var modeSlots: [String: Int] = [:], modeTimes: [[TimeInterval]] = []
    private var dayPickups: [Int] = [], daySwitches: [Int] = []
    private var lastEnd: Date?
    private var lastApp: AppID?
    private var dayEnd = Date.distantPast
    private var offsets = SteadyOffset()
    /// Time per weekday (Monday first) and hour of the clock, for the heat map.
    private(set) var hours = Array(repeating: Array(repeating: TimeInterval(0), count: 24), count: 7)

    /// `lastEndBefore`: the end of the last interval before the first one added, if any.
    public init(lastEndBefore: Date?, idleThreshold: TimeInterval, boundary: DayBoundary, zone: LocalTimeZone) {
        lastEnd = lastEndBefore
        self.idleThreshold = idleThreshold
        self.boundary = boundary
        self.zone = zone
    }

    public mutating func add(_ interval: UsageReport.Interval) {
        var start = interval.start
        if start >= dayEnd { enterDay(of: start) }
        if lastEnd.map({ start.timeIntervalSince($0) >= idleThreshold }) ?? true {
            dayPickups[labels.count - 1] += 1
        } else if interval.app != lastApp {
            daySwitches[labels.count - 1] += 1
        }
        lastEnd = interval.end
        lastApp = interval.app
        let app = appSlot(interval.app)
        let mode = Self.slot(of: interval.mode, in: &modeSlots, &modeTimes, days: labels.count)
        // Split at day boundaries so each day gets its own part.
        while start < interval.end {
            if start >= dayEnd { enterDay(of: start) }
            let end = min(interval.end, dayEnd)
            appTimes[app][labels.count - 1] += end.timeIntervalSince(start)
            modeTimes[mode][labels.count - 1] += end.timeIntervalSince(start)
            addHours(from: start, to: end)
            start = end
        }
    }

    /// Time another joined computer spent in `interval.app` (an hour's total from the synced
    /// folder, as if from the hour's start): it counts per app, day and hour; not as pickups or
    /// switches, nor in a mode (the folder holds neither). Given in start order with `add`'s.
    public mutating func addElsewhere(_ interval: UsageReport.Interval) {
        var start = interval.start
        let app = appSlot(interval.app)
        while start < interval.end {
            if start >= dayEnd { enterDay(of: start) }
            let end = min(interval.end, dayEnd)
            appTimes[app][labels.count - 1] += end.timeIntervalSince(start)
            addHours(from: start, to: end)
            start = end
        }
    }

    /// Time per app, per day label.
    var apps: [AppID: [String: TimeInterval]] { appSlots.mapValues { byLabel(appTimes[$0]) } }
    /// Time per mode, per day label.
    var modes: [String: [String: TimeInterval]] { modeSlots.mapValues { byLabel(modeTimes[$0]) } }
    var pickups: [String: Int] { byLabel(dayPickups) }
    var switches: [String: Int] { byLabel(daySwitches) }
    /// The apps counted.
    public var appIDs: Dictionary<AppID, Int>.Keys { appSlots.keys }

    private mutating func enterDay(of instant: Date) {
        labels.append(boundary.label(of: instant, in: zone))
        dayEnd = boundary.end(of: instant, in: zone)
        dayPickups.append(0)
        daySwitches.append(0)
        for slot in appTimes.indices { appTimes[slot].append(0) }
        for slot in modeTimes.indices { modeTimes[slot].append(0) }
    }

    /// The slot of `key`, opened with a zero for each day so far when it is new.
    private static func slot<Key: Hashable>(of key: Key, in slots: inout [Key: Int], _ times: inout [[TimeInterval]], days: Int) -> Int {
        if let slot = slots[key] { return slot }
        times.append(Array(repeating: 0, count: days))
        slots[key] = times.count - 1
        return times.count - 1
    }

    /// The app's slot: the last few apps are compared first (one string the store handed out
    /// again compares by identity), the dictionary asked for the others.
    private mutating func appSlot(_ app: AppID) -> Int {
        if let index = recentApps.firstIndex(where: { $0.app == app }) { return recentApps[index].slot }
        let slot = Self.slot(of: app, in: &appSlots, &appTimes, days: labels.count)
        recentApps.insert((app, slot), at: 0)
        if recentApps.count > 4 { recentApps.removeLast() }
        return slot
    }

    private func byLabel<Value: Numeric>(_ values: [Value]) -> [String: Value] {
        var result: [String: Value] = [:]
        for (day, value) in values.enumerated() where value != 0 { result[labels[day], default: 0] += value }
        return result
    }

    /// Adds `[start, end)` to the hours of the clock it covers, in local time.
    private mutating func addHours(from start: Date, to end: Date) {
        let offset = Double(offsets.offset(at: start, in: zone))
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

/// The zone's UTC offset, asked of the zone (the C library's `localtime`, the tally's costliest call
/// per interval) once a day rather than once an interval: an offset the same at both ends of a day
/// is taken to hold all day, as no zone changes its clocks twice within one.
private struct SteadyOffset {
    private var steady: (from: Date, to: Date, seconds: Int)?

    mutating func offset(at instant: Date, in zone: LocalTimeZone) -> Int {
        if let steady, instant >= steady.from, instant < steady.to { return steady.seconds }
        let seconds = zone.utcOffset(at: instant)
        let dayLater = instant.addingTimeInterval(86_400)
        steady = zone.utcOffset(at: dayLater) == seconds ? (instant, dayLater, seconds) : nil
        return seconds
    }
}
