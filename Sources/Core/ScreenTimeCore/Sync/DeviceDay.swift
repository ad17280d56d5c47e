import FoundationEssentials

/// One device's day as it writes it to the synced folder: foreground time per app and per group
/// in each hour of the day (counted from the day's start), the continues granted and the limits
/// hit. Each write holds the whole day so far; a later write of the same device holds at least as
/// much, so versions of a day merge by taking the larger figure of each hour, never by adding.
public struct DeviceDay: Equatable, Sendable {
    public struct Bypass: Hashable, Sendable {
        public var at: Date
        public var app: AppID
        public var rule: BypassedRule
        public var granted: TimeInterval

        public init(at: Date, app: AppID, rule: BypassedRule, granted: TimeInterval) {
            self.at = at
            self.app = app
            self.rule = rule
            self.granted = granted
        }
    }

    public struct LimitHit: Hashable, Sendable {
        public var at: Date
        public var app: AppID
        public var used: TimeInterval

        public init(at: Date, app: AppID, used: TimeInterval) {
            self.at = at
            self.app = app
            self.used = used
        }
    }

    public var device: SyncDeviceID
    public var name: String
    /// The device's count of its writes: a version with a higher one was written later.
    public var sequence: UInt64
    /// When it was written, on the writer's clock (shown, never compared across devices).
    public var written: Date
    public var day: CivilDate
    /// Milliseconds per app in each hour of the day (0 is the hour from the day's start).
    public var apps: [AppID: HourTotals]
    /// Milliseconds per group per hour, as the writer placed its apps in groups (an app's groups
    /// can come from its desktop entry, which only the writer has).
    public var groups: [String: HourTotals]
    public var bypasses: Set<Bypass>
    public var limitHits: Set<LimitHit>

    public init(device: SyncDeviceID, name: String, sequence: UInt64, written: Date, day: CivilDate,
                apps: [AppID: HourTotals] = [:], groups: [String: HourTotals] = [:],
                bypasses: Set<Bypass> = [], limitHits: Set<LimitHit> = []) {
        self.device = device
        self.name = name
        self.sequence = sequence
        self.written = written
        self.day = day
        self.apps = apps
        self.groups = groups
        self.bypasses = bypasses
        self.limitHits = limitHits
    }

    /// The hours a day can have (25 on the night clocks go back).
    public static let hours = 0..<26

    public var appTotals: [AppID: TimeInterval] { apps.mapValues { Double($0.total) / 1000 } }
    public var groupTotals: [String: TimeInterval] { groups.mapValues { Double($0.total) / 1000 } }
    public var total: TimeInterval { Double(apps.values.reduce(0) { $0 + $1.total }) / 1000 }

    /// Adds foreground time of `app` (and of its `groups`) in `hour`.
    public mutating func add(_ milliseconds: Int64, app: AppID, groups appGroups: [String], hour: Int) {
        guard milliseconds > 0, Self.hours.contains(hour) else { return }
        apps[app, default: HourTotals()][hour] += milliseconds
        for group in appGroups { groups[group, default: HourTotals()][hour] += milliseconds }
    }

    /// Two versions of one device's day as one: each hour's larger figure, every record of either.
    /// Commutative, associative and idempotent, so neither delivery order nor a copy delivered
    /// twice changes the result.
    public func merged(with other: DeviceDay) -> DeviceDay {
        var result = self
        result.sequence = max(sequence, other.sequence)
        result.written = max(written, other.written)
        if other.sequence > sequence || (other.sequence == sequence && other.name > name) { result.name = other.name }
        result.apps = Self.larger(apps, other.apps)
        result.groups = Self.larger(groups, other.groups)
        result.bypasses.formUnion(other.bypasses)
        result.limitHits.formUnion(other.limitHits)
        return result
    }

    /// Whether this version holds every figure and record of `other`: what each later write of
    /// one honest writer does of the earlier ones. Two versions neither of which holds the other
    /// were written by two computers with one id (a cloned disk).
    public func holds(_ other: DeviceDay) -> Bool {
        guard other.bypasses.isSubset(of: bypasses), other.limitHits.isSubset(of: limitHits) else { return false }
        for (app, hours) in other.apps where !(apps[app] ?? HourTotals()).holds(hours) { return false }
        for (group, hours) in other.groups where !(groups[group] ?? HourTotals()).holds(hours) { return false }
        return true
    }

    private static func larger<Key>(_ a: [Key: HourTotals], _ b: [Key: HourTotals]) -> [Key: HourTotals] {
        a.merging(b) { $0.larger($1) }
    }
}

/// Milliseconds in each hour of a day (26 of them: the night clocks go back has 25).
public struct HourTotals: Equatable, Sendable {
    public private(set) var milliseconds: [Int64]

    public init() { milliseconds = Array(repeating: 0, count: DeviceDay.hours.count) }

    public init(_ hours: [Int: Int64]) {
        self.init()
        for (hour, value) in hours where DeviceDay.hours.contains(hour) { milliseconds[hour] = value }
    }

    public subscript(hour: Int) -> Int64 {
        get { milliseconds[hour] }
        set { milliseconds[hour] = newValue }
    }

    public var total: Int64 { milliseconds.reduce(0, +) }

    /// Each hour's larger figure.
    public func larger(_ other: HourTotals) -> HourTotals {
        var result = self
        for hour in milliseconds.indices where other.milliseconds[hour] > milliseconds[hour] { result.milliseconds[hour] = other.milliseconds[hour] }
        return result
    }

    public func holds(_ other: HourTotals) -> Bool {
        milliseconds.indices.allSatisfy { milliseconds[$0] >= other.milliseconds[$0] }
    }
}
