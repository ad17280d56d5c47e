import FoundationEssentials

/// The Standard-mode policy: counts foreground time per app, runs the countdown before each
/// limit, disables an app at its limit and grants more time when the user continues. Pure: the
/// caller passes every event with its time and carries out the returned actions.
public struct Engine {
    public private(set) var settings: Settings
    private let zone: LocalTimeZone
    /// Foreground time per app today, not counting the running segment.
    public private(set) var usage: [AppID: TimeInterval]
    /// Continues granted today per app.
    public private(set) var grants: [AppID: Int]
    public private(set) var dayStart: Date
    public private(set) var dayEnd: Date
    public private(set) var focused: FocusedApp?
    public private(set) var active = true
    /// The segment being counted: focused, active and allowed.
    private var segmentStart: Date?
    /// Per app, the most urgent countdown mark already shown for the current limit.
    private var shownMark: [AppID: TimeInterval] = [:]
    private var apps: [AppID: AppInfo] = [:]
    private var lastEvent: Date

    public init(settings: Settings, zone: LocalTimeZone, now: Date,
                usageToday: [AppID: TimeInterval] = [:], grantsToday: [AppID: Int] = [:]) {
        self.settings = settings
        self.zone = zone
        usage = usageToday
        grants = grantsToday
        dayStart = settings.dayBoundary.start(of: now, in: zone)
        dayEnd = settings.dayBoundary.end(of: now, in: zone)
        lastEvent = now
    }

    // MARK: - Queries

    /// The limit including continues, or nil when the app has none.
    public func effectiveLimit(of app: AppID) -> TimeInterval? {
        settings.limit(for: app).map { $0 + Double(grants[app, default: 0]) * settings.continueGrant }
    }

    public func used(_ app: AppID, at now: Date) -> TimeInterval {
        var total = usage[app, default: 0]
        if let segmentStart, focused?.app.id == app { total += now.timeIntervalSince(segmentStart) }
        return total
    }

    public func remaining(_ app: AppID, at now: Date) -> TimeInterval? {
        effectiveLimit(of: app).map { $0 - used(app, at: now) }
    }

    public func isOverLimit(_ app: AppID, at now: Date) -> Bool {
        remaining(app, at: now).map { $0 <= 0 } ?? false
    }

    public var isCounting: Bool { segmentStart != nil }

    public func info(_ app: AppID) -> AppInfo { apps[app] ?? AppInfo(id: app, name: app.rawValue, icon: app.rawValue) }

    /// When the engine next needs a `.tick`: a countdown mark, the limit, or the next day.
    public func nextDeadline() -> Date? {
        var deadline = dayEnd
        if let segmentStart, let app = focused?.app.id, let limit = effectiveLimit(of: app) {
            let limitAt = segmentStart.addingTimeInterval(limit - usage[app, default: 0])
            deadline = min(deadline, limitAt)
            let shown = shownMark[app] ?? .infinity
            if let mark = settings.countdownMarks.filter({ $0 < shown }).max(),
               case let at = limitAt.addingTimeInterval(-mark), at > lastEvent {
                deadline = min(deadline, at)
            }
        }
        return deadline
    }

    // MARK: - Events

    public mutating func handle(_ event: EngineEvent, at time: Date) -> [EngineAction] {
        let now = max(time, lastEvent)
        var actions = rollOverDays(until: now)
        lastEvent = now
        switch event {
        case .focus(let new):
            if let new { apps[new.app.id] = new.app }
            if new?.app.id == focused?.app.id, new?.title == focused?.title {
                focused = new
                break
            }
            actions += stopCounting(at: now)
            focused = new
            actions += startCountingOrDisable(at: now)
        case .title(let title):
            guard var current = focused, current.title != title else { break }
            current.title = title
            let wasCounting = isCounting
            actions += stopCounting(at: now)
            focused = current
            if wasCounting { actions += startCountingOrDisable(at: now) }
        case .activity(let isActive):
            guard isActive != active else { break }
            active = isActive
            actions += isActive ? startCountingOrDisable(at: now) : stopCounting(at: now)
        case .settings(let new):
            actions += stopCounting(at: now)
            let old = self
            settings = new
            for app in Set(shownMark.keys) where old.effectiveLimit(of: app) != effectiveLimit(of: app) {
                shownMark[app] = nil
            }
            dayStart = new.dayBoundary.start(of: now, in: zone)
            dayEnd = new.dayBoundary.end(of: now, in: zone)
            actions += startCountingOrDisable(at: now)
            actions.append(.statusChanged)
        case .notificationAction(let app, let key):
            if key == ActionKey.continue { actions += grantContinue(app, at: now) }
        case .continueRequested(let app):
            actions += grantContinue(app, at: now)
        case .tick:
            break
        }
        actions += checkLimit(at: now)
        return actions
    }

    // MARK: - Counting

    private mutating func stopCounting(at now: Date) -> [EngineAction] {
        guard let start = segmentStart, let app = focused?.app.id else { return [] }
        usage[app, default: 0] += now.timeIntervalSince(start)
        segmentStart = nil
        return [.endInterval(at: now), .statusChanged]
    }

    private mutating func startCountingOrDisable(at now: Date) -> [EngineAction] {
        guard let focused, active, segmentStart == nil else { return [] }
        if isOverLimit(focused.app.id, at: now) { return disable(focused.app.id, at: now) }
        segmentStart = now
        return [.beginInterval(app: focused.app.id, title: focused.title, at: now), .statusChanged]
    }

    /// Shows the countdown when a mark has been crossed; disables the app at its limit.
    private mutating func checkLimit(at now: Date) -> [EngineAction] {
        guard isCounting, let app = focused?.app.id, let left = remaining(app, at: now) else { return [] }
        if left <= 0 {
            var actions = stopCounting(at: now)
            actions.append(.recordLimitHit(app: app, used: used(app, at: now), at: now))
            return actions + disable(app, at: now)
        }
        let shown = shownMark[app] ?? .infinity
        guard let mark = settings.countdownMarks.filter({ $0 >= left && $0 < shown }).min() else { return [] }
        shownMark[app] = mark
        return [.notify(app: app, Wording.countdown(info(app), left: left, used: used(app, at: now),
                                                     limit: effectiveLimit(of: app) ?? 0))]
    }

    private func disable(_ app: AppID, at now: Date) -> [EngineAction] {
        [.minimize(app),
         .notify(app: app, Wording.limitReached(info(app), used: used(app, at: now), grant: settings.continueGrant))]
    }

    private mutating func grantContinue(_ app: AppID, at now: Date) -> [EngineAction] {
        guard isOverLimit(app, at: now) else { return [] }
        grants[app, default: 0] += 1
        shownMark[app] = nil
        var actions: [EngineAction] = [
            .recordBypass(app: app, mode: "standard", granted: settings.continueGrant, at: now),
            .closeNotification(app: app), .statusChanged,
        ]
        if focused?.app.id == app { actions += startCountingOrDisable(at: now) }
        return actions
    }

    // MARK: - Days

    /// Splits the running segment at each day boundary passed and starts the new day afresh.
    private mutating func rollOverDays(until now: Date) -> [EngineAction] {
        var actions: [EngineAction] = []
        while now >= dayEnd {
            let boundary = dayEnd
            actions += stopCounting(at: boundary)
            usage = [:]
            grants = [:]
            shownMark = [:]
            dayStart = boundary
            dayEnd = settings.dayBoundary.end(of: boundary, in: zone)
            lastEvent = boundary
            actions += startCountingOrDisable(at: boundary)
            actions.append(.statusChanged)
        }
        return actions
    }
}
