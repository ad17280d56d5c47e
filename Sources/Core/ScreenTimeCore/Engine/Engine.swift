import FoundationEssentials

/// The policy: counts foreground time per app, runs the countdown before each limit, disables an
/// app at its limit and grants more time when the user continues; in a mode that allows only some
/// apps it disables the others at once, with the mode's way through. The caller resolves the mode
/// (`.mode` events). Pure: the caller passes every event with its time and carries out the
/// returned actions.
public struct Engine {
    public private(set) var settings: Settings
    private let zone: LocalTimeZone
    /// Foreground time per app today, not counting the running segment.
    public private(set) var usage: [AppID: TimeInterval]
    /// The other joined devices' use today (`Engine+Elsewhere.swift`): counted with this one's.
    public internal(set) var elsewhere = UsageElsewhere()
    /// Continues past the limit granted today per app: the length of each as it was granted, so a
    /// later change of `continue-for` neither cuts nor stretches one already given.
    public private(set) var grants: [AppID: [TimeInterval]]
    public private(set) var dayStart: Date
    public private(set) var dayEnd: Date
    /// The app in front as the engine counts it: a title rule's virtual app where one matches.
    public private(set) var focused: FocusedApp?
    /// The app in front as the focus source saw it, before title rules.
    private var focusedWindow: FocusedApp?
    public private(set) var active = true
    public private(set) var decision = ModeDecision.standard
    /// What the mode does now (the break's profile during a Productivity break).
    public private(set) var profile: ModeProfile
    /// Per app, until when a bypass lets it run in the current mode.
    public private(set) var modeBypasses: [AppID: Date] = [:]
    /// Until when a bypass lets every app the mode holds back run (a mode whose bypass covers them all).
    public private(set) var heldBackBypass: Date?
    /// Apps given the Wake Up reminder in this Wake Up.
    private var reminded: Set<AppID> = []
    /// Breaks, unlocking, the run-down and do-not-disturb.
    private var moments = ModeMoments()
    /// Whether a `.mode` event came yet (the first one sets the display filter whatever it is).
    private var modeKnown = false
    /// The segment being counted: focused, active and allowed.
    private var segmentStart: Date?
    /// Per app, the countdown shown on the way to the current limit (or the end of the last continue).
    private var countdowns: [AppID: Countdown] = [:]
    private var apps: [AppID: AppInfo] = [:]
    /// The limits `settings` gives the apps in `apps` that were focused since the settings last
    /// changed: every event asks for the focused app's several times, and working them out
    /// (built-in essentials, groups from categories, the user's edits) costs more than the rest of
    /// the event. An app not here has them worked out when asked.
    private var limitRules: [AppID: LimitRule] = [:]
    private var lastEvent: Date
    /// `nextDeadline()` as last worked out, until the next event: the agent's loop asks every turn.
    private var knownDeadline: Date??

    public init(settings: Settings, zone: LocalTimeZone, now: Date,
                usageToday: [AppID: TimeInterval] = [:], grantsToday: [AppID: [TimeInterval]] = [:], knownApps: [AppInfo] = []) {
        self.settings = settings
        self.zone = zone
        usage = usageToday
        grants = grantsToday
        dayStart = settings.dayBoundary.start(of: now, in: zone)
        dayEnd = settings.dayBoundary.end(of: now, in: zone)
        lastEvent = now
        profile = settings.profile(for: .standard)
        // Apps used earlier today keep their groups (and so their limits) before they are focused again.
        for app in knownApps { apps[app.id] = app }
    }

    // MARK: - Queries

    /// The app's use today at which it is disabled: the tighter of its own limit and its groups'
    /// limits, plus its continues; nil when none applies (or the mode lifts limits).
    public func effectiveLimit(of app: AppID) -> TimeInterval? {
        remaining(app, at: lastEvent).map { $0 + used(app, at: lastEvent) }
    }

    /// Whether the mode lets `app` run now: essential apps always, else its classes or a bypass.
    public func modeAllows(_ app: AppID, at now: Date) -> Bool {
        modeAdmits(app) || modeBypassCovers(app, at: now)
    }

    /// Whether the mode lets `app` run of itself: every app, or essential apps and the mode's classes.
    private func modeAdmits(_ app: AppID) -> Bool {
        guard case .only(let allowed) = profile.allowedApps else { return true }
        let info = info(app)
        return settings.isEssential(info) || !settings.classes(of: info).isDisjoint(with: allowed)
    }

    /// Whether `app`, which the mode holds back, runs now on a bypass (its own, or one for every
    /// app held back). Its daily limit then waits: the bypass's end is the next word about it, so
    /// a countdown or a card of the limit never comes on top of the mode's.
    public func modeBypassCovers(_ app: AppID, at now: Date) -> Bool {
        !modeAdmits(app) && (modeBypassEnd(app).map { $0 > now } ?? false)
    }

    private func modeBypassEnd(_ app: AppID) -> Date? {
        [modeBypasses[app], heldBackBypass].compactMap { $0 }.max()
    }

    /// The app's use today, here and on the other joined devices.
    public func used(_ app: AppID, at now: Date) -> TimeInterval {
        usedHere(app, at: now) + elsewhere.apps[app, default: 0]
    }

    private func usedHere(_ app: AppID, at now: Date) -> TimeInterval {
        var total = usage[app, default: 0]
        if let segmentStart, focused?.app.id == app { total += now.timeIntervalSince(segmentStart) }
        return total
    }

    /// A group's use today: the sum of its apps' (a site's virtual app counts for its group, not
    /// for the browser's).
    public func used(_ group: AppGroup, at now: Date) -> TimeInterval {
        var apps = Set(usage.keys)
        if let app = focused?.app.id { apps.insert(app) }
        let here = apps.filter { settings.groups(of: info($0)).contains(group) }.reduce(0) { $0 + usedHere($1, at: now) }
        return here + elsewhere.groups[group.rawValue, default: 0]
    }

    /// Time left today: the least left of the app's own limit and each of its groups' limits,
    /// plus the continues the app was granted.
    public func remaining(_ app: AppID, at now: Date) -> TimeInterval? {
        guard profile.allowedApps.limitsApply else { return nil }
        let rule = limitRules[app] ?? LimitRule(info(app), settings)
        var left = rule.own.map { $0 - used(app, at: now) }
        for (group, limit) in rule.groups {
            left = Swift.min(left ?? .infinity, limit - used(group, at: now))
        }
        return left.map { $0 + grants[app, default: []].reduce(0, +) }
    }

    public func isOverLimit(_ app: AppID, at now: Date) -> Bool {
        remaining(app, at: now).map { $0 <= 0 } ?? false
    }

    public var isCounting: Bool { segmentStart != nil }

    /// When the running segment reaches `app`'s limit. The deadline and the check both use this one
    /// instant, so rounding cannot leave a deadline that has come while the limit is "not yet" reached.
    /// Not inlined: inlined into the mutating `checkLimit`, its `remaining` was called on a copy of
    /// the whole engine.
    @inline(never)
    private func limitReachedAt(_ app: AppID) -> Date? {
        // Only the focused app counts, so its groups' use grows with its own.
        guard let segmentStart, focused?.app.id == app, let left = remaining(app, at: segmentStart) else { return nil }
        return segmentStart.addingTimeInterval(left)
    }

    public func info(_ app: AppID) -> AppInfo { apps[app] ?? SiteApp.known(by: app) }

    /// `nextDeadline()`, worked out once per event. Mutating, so that an engine kept in a class is
    /// asked in place: a non-mutating call through the class's property copies the engine whole
    /// (every table retained, then released) at each ask.
    public mutating func cachedNextDeadline() -> Date? {
        if let knownDeadline { return knownDeadline }
        let deadline = nextDeadline()
        knownDeadline = .some(deadline)
        return deadline
    }

    /// When the engine next needs a `.tick`: a countdown mark, the limit, a bypass running out,
    /// the start or end of a break, or the next day.
    public func nextDeadline() -> Date? {
        var deadline = dayEnd
        if decision.mode == .productivity {
            switch decision.productivityBreak {
            case .working(let due)? where due > lastEvent: deadline = min(deadline, due)
            case .onBreak(_, let until)? where until > lastEvent: deadline = min(deadline, until)
            default: break
            }
        }
        if isCounting, let app = focused?.app.id, let until = modeBypassEnd(app), until > lastEvent, !modeAdmits(app) {
            deadline = min(deadline, until)
        }
        if let app = focused?.app.id, !modeBypassCovers(app, at: lastEvent), let limitAt = limitReachedAt(app) {
            deadline = min(deadline, limitAt)
            if let mark = nextCountdownMark(app), case let at = limitAt.addingTimeInterval(-mark), at > lastEvent {
                deadline = min(deadline, at)
            }
        }
        return deadline
    }

    // MARK: - Events

    public mutating func handle(_ event: EngineEvent, at time: Date) -> [EngineAction] {
        knownDeadline = nil
        // Room for a focus switch's actions (an interval ended and begun, the status): grown once.
        var actions: [EngineAction] = []
        actions.reserveCapacity(8)
        if case .clockJumped(let lastSeen) = event { actions.add(rebase(lastSeen: lastSeen, now: time)) }
        let now = max(time, lastEvent)
        actions.add(rollOverDays(until: now))
        lastEvent = now
        actions.add(followBreakRhythm(at: now))
        switch event {
        case .focus(let window):
            focusedWindow = window
            // A closure, not the method itself: `map(applyingTitleRules)` captures a copy of the engine.
            let new = window.map { applyingTitleRules($0) }
            if let new { know(new.app) }
            // Another window, or another title, of the app being counted: the same interval.
            if let new, new.app.id == focused?.app.id, isCounting || !active {
                focused = new
                if active { actions.add(moments.rundown(at: now)) }
                break
            }
            actions.add(stopCounting(at: now))
            focused = new
            actions.add(startCountingOrDisable(at: now))
            if active { actions.add(moments.rundown(at: now)) }
        case .title(let title):
            guard var window = focusedWindow, window.title != title else { break }
            window.title = title
            focusedWindow = window
            let current = applyingTitleRules(window)
            know(current.app)
            // The same app: a title change alone starts no interval. Another (a title rule's
            // virtual app coming or going): as if focus moved.
            guard current.app.id != focused?.app.id else {
                focused = current
                break
            }
            actions.add(stopCounting(at: now))
            focused = current
            actions.add(startCountingOrDisable(at: now))
        case .activity(let isActive):
            guard isActive != active else { break }
            active = isActive
            actions.add(isActive ? startCountingOrDisable(at: now) + moments.rundown(at: now) : stopCounting(at: now))
        case .settings(let new):
            actions.add(stopCounting(at: now))
            let old = self
            settings = new
            limitRules = [:]
            focused = focusedWindow.map { applyingTitleRules($0) }
            if let focused { know(focused.app) }
            actions.add(applyProfile(new.profile(for: decision.mode, onBreak: decision.isOnBreak(at: now)), at: now))
            for app in Set(countdowns.keys) where old.effectiveLimit(of: app) != effectiveLimit(of: app) {
                countdowns[app] = nil
            }
            dayStart = new.dayBoundary.start(of: now, in: zone)
            dayEnd = new.dayBoundary.end(of: now, in: zone)
            actions.add(startCountingOrDisable(at: now))
            actions.append(.statusChanged)
        case .notificationAction(let app, let key):
            if key == ActionKey.continue { actions.add(grantContinue(app, at: now)) }
        case .continueRequested(let app):
            actions.add(grantContinue(app, at: now))
        case .unlocked:
            actions.add(moments.unlocked(decision, at: now))
        case .mode(let new):
            actions.add(changeMode(to: new, at: now))
        case .clockJumped:
            actions.add(startCountingOrDisable(at: now))
        case .tick:
            break
        }
        actions.add(checkMode(at: now))
        actions.add(checkLimit(at: now))
        // Last, so the notices of this moment are out before the server falls silent.
        if modeKnown { actions.add(moments.follow(profile.notifications)) }
        return actions
    }

    /// Keeps what is known of `app` (its groups may have come with a desktop entry since), and its limits.
    private mutating func know(_ app: AppInfo) {
        guard apps[app.id] != app || limitRules[app.id] == nil else { return }
        apps[app.id] = app
        limitRules[app.id] = LimitRule(app, settings)
    }

    private func applyingTitleRules(_ window: FocusedApp) -> FocusedApp {
        var counted = window
        counted.app = settings.titleRules.app(for: window.app, title: window.title)
        return counted
    }

    // MARK: - Modes

    private mutating func changeMode(to new: ModeDecision, at now: Date) -> [EngineAction] {
        let old = decision
        let first = !modeKnown
        modeKnown = true
        decision = new
        var actions: [EngineAction] = []
        let modeChanged = old.mode != new.mode
        if modeChanged {
            // Each interval carries one mode, and what the old mode granted ends with it.
            actions += stopCounting(at: now)
            modeBypasses = [:]
            heldBackBypass = nil
            reminded = []
            moments.modeStarted(new.mode)
            actions += [.recordModeChange(mode: new.mode, reason: new.reason, at: now),
                        .notifyMode(Wording.modeStarted(new.mode, stayUpFor: settings.modes.automatic.stayUpPause))]
        }
        let wasOnBreak = old.isOnBreak(at: now)
        let onBreak = new.isOnBreak(at: now)
        if onBreak && !wasOnBreak, case .onBreak(let since, let until)? = new.productivityBreak {
            actions.append(moments.breakStarted(since: since, until: until, activities: settings.content.breakActivities, at: now))
        }
        // A break ended by the agent's decision (breaks turned off, a rhythm the engine did not
        // follow); one ending at its time was announced when the engine moved on by itself.
        if wasOnBreak && !onBreak && !modeChanged {
            actions.append(moments.breakEnded(nextBreak: new.productivityBreak?.nextBreak, at: now))
        }
        let newProfile = settings.profile(for: new.mode, onBreak: onBreak)
        if (first || modeChanged) && newProfile.displayFilter == profile.displayFilter {
            actions.append(.setDisplayFilter(newProfile.displayFilter))
        }
        let profileChanged = newProfile != profile
        actions += applyProfile(newProfile, at: now)
        // The focused app counts under the new mode, or is disabled at once if it does not allow
        // it; a decision that changes nothing the engine acts on (a new `next`) leaves it be.
        if modeChanged || profileChanged { actions += startCountingOrDisable(at: now) }
        actions.append(.statusChanged)
        return actions
    }

    /// Puts a new profile in force, with the display filter when it differs. Stops counting; the
    /// caller starts again under the new rules.
    private mutating func applyProfile(_ new: ModeProfile, at now: Date) -> [EngineAction] {
        guard new != profile else { return [] }
        let old = profile
        var actions = stopCounting(at: now)
        profile = new
        if new.displayFilter != old.displayFilter { actions.append(.setDisplayFilter(new.displayFilter)) }
        actions.append(.statusChanged)
        return actions
    }

    /// Productivity's breaks start and end at their times even before the agent decides again:
    /// the rhythm moves on from the boundary passed, as the resolver would move it.
    private mutating func followBreakRhythm(at now: Date) -> [EngineAction] {
        var actions: [EngineAction] = []
        let breaks = settings.modes.breaks
        switch decision.productivityBreak {
        case .working(let due)? where decision.mode == .productivity && due <= now:
            // A stretch ending at `due` began `every` before it, whether the break was due or asked for.
            if let state = breaks.state(at: now, productivitySince: due.addingTimeInterval(-max(breaks.every, DurationBounds.breakEvery.lowerBound)), requested: []) {
                decision.productivityBreak = state
                if case .onBreak(let since, let until) = state {
                    actions.append(moments.breakStarted(since: since, until: until, activities: settings.content.breakActivities, at: now))
                }
                actions.append(.statusChanged)
            }
        case .onBreak(_, let until)? where decision.mode == .productivity && until <= now:
            if let state = breaks.state(at: now, productivitySince: until, requested: []) {
                decision.productivityBreak = state
                actions += [moments.breakEnded(nextBreak: state.nextBreak, at: now), .statusChanged]
            }
        default:
            break
        }
        let current = settings.profile(for: decision.mode, onBreak: decision.isOnBreak(at: now))
        guard current != profile else { return actions }
        return actions + applyProfile(current, at: now) + startCountingOrDisable(at: now)
    }

    /// Disables the focused app once the mode stops allowing it (a bypass ran out).
    private mutating func checkMode(at now: Date) -> [EngineAction] {
        guard isCounting, let app = focused?.app.id, !modeAllows(app, at: now) else { return [] }
        return stopCounting(at: now) + disableForMode(app, at: now)
    }

    private func disableForMode(_ app: AppID, at now: Date) -> [EngineAction] {
        let nextBreakAt = decision.productivityBreak?.nextBreak.flatMap { $0 > now ? $0 : nil }
        let context = Wording.disallowedContext(decision.mode, response: profile.onDisallowedApp,
                                                nextBreakIn: nextBreakAt.map { $0.timeIntervalSince(now) })
        let fallback = Wording.notAllowed(info(app), in: decision.mode, response: profile.onDisallowedApp,
                                          grant: profile.bypassGrant, context: context)
        // An app opened during a break gets the break's card: its activity and when it ends.
        var breakEndsAt: Date?
        if case .onBreak(let since, let until)? = decision.productivityBreak, since <= now, now < until { breakEndsAt = until }
        let card = CardRequest(occasion: .notAllowed, mode: decision.mode, app: info(app), grant: profile.bypassGrant,
                               nextBreakAt: nextBreakAt, breakEndsAt: breakEndsAt,
                               activity: breakEndsAt == nil ? nil : moments.breakActivity, at: now)
        return [.minimize(app), .showCard(card, fallback: fallback)]
    }

    /// Wake Up: the first time a content app comes to the front, a gentle word (no minimize).
    private mutating func morningReminder(_ app: AppID) -> [EngineAction] {
        guard profile.onDisallowedApp == .morningReminder, !reminded.contains(app),
              settings.groups(of: info(app)).contains(.content), !settings.isEssential(info(app)) else { return [] }
        reminded.insert(app)
        return [.notify(app: app, Wording.morningReminder(info(app)))]
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
        let app = focused.app.id
        if !modeAllows(app, at: now) { return disableForMode(app, at: now) }
        if isOverLimit(app, at: now), !modeBypassCovers(app, at: now) { return disable(app, at: now) }
        segmentStart = now
        let reminder = morningReminder(app)
        let begin = EngineAction.beginInterval(app: app, title: settings.storedTitle(of: app, title: focused.title),
                                               mode: decision.mode.rawValue, at: now)
        // One array made, not grown twice: this is every focus switch.
        return reminder.isEmpty ? [begin, .statusChanged] : reminder + [begin, .statusChanged]
    }

    /// Shows the countdown when a mark has been crossed; disables the app at its limit.
    private mutating func checkLimit(at now: Date) -> [EngineAction] {
        guard isCounting, let app = focused?.app.id, !modeBypassCovers(app, at: now), let left = remaining(app, at: now),
              let limitAt = limitReachedAt(app) else { return [] }
        if limitAt <= now {
            var actions = stopCounting(at: now)
            actions.append(.recordLimitHit(app: app, used: used(app, at: now), at: now))
            return actions + disable(app, at: now)
        }
        guard nextCountdownMark(app) != nil,
              let mark = settings.countdownMarks.filter({ $0 >= left && $0 < countdowns[app]?.mark ?? .infinity }).min() else { return [] }
        countdowns[app] = Countdown(mark: mark, staysShown: countdowns[app]?.staysShown ?? (left <= Wording.countdownInPlaceFrom))
        return [.notify(app: app, Wording.countdown(info(app), left: left, used: used(app, at: now),
                                                     limit: effectiveLimit(of: app) ?? 0))]
    }

    /// The next countdown mark `app` may show on the way to its limit. One reminder a stretch (to
    /// the limit, or to the end of a continue): after a glance that went by, the next word is the
    /// card; only a notice that stays on screen (the last minute) is updated at the later marks.
    private func nextCountdownMark(_ app: AppID) -> TimeInterval? {
        guard let shown = countdowns[app] else { return settings.countdownMarks.max() }
        return shown.staysShown ? settings.countdownMarks.filter { $0 < shown.mark }.max() : nil
    }

    private func disable(_ app: AppID, at now: Date) -> [EngineAction] {
        let card = CardRequest(occasion: .limitReached, mode: decision.mode, app: info(app), grant: settings.continueGrant, at: now)
        return [.minimize(app),
                .showCard(card, fallback: Wording.limitReached(info(app), used: used(app, at: now), grant: settings.continueGrant))]
    }

    /// Whether Continue lets `app` through now: held back by a mode that offers a way past it, or
    /// over its limit. The one rule, whichever way Continue is asked (card, notification, CLI).
    public func canContinue(_ app: AppID, at now: Date) -> Bool {
        (!modeAllows(app, at: now) && profile.bypassGrant != nil) || isOverLimit(app, at: now)
    }

    /// Continue: past the mode's restriction first (for the profile's grant, for this app or every
    /// app the mode holds back), else past the limit.
    private mutating func grantContinue(_ app: AppID, at now: Date) -> [EngineAction] {
        guard canContinue(app, at: now) else { return [] }
        if !modeAllows(app, at: now), let grant = profile.bypassGrant {
            if profile.bypassCoversHeldBackApps { heldBackBypass = now.addingTimeInterval(grant) } else {
                modeBypasses[app] = now.addingTimeInterval(grant)
            }
            var actions: [EngineAction] = [
                .recordBypass(app: app, mode: decision.mode.rawValue, rule: .mode, granted: grant, at: now),
                .closeNotification(app: app), .statusChanged,
            ]
            if focused?.app.id == app { actions += startCountingOrDisable(at: now) }
            return actions
        }
        // The whole grant from now, also past a limit lowered below today's use or a group's spent
        // by other apps: what is over is forgiven with it, or Continue would disable the app again.
        let over = max(0, -(remaining(app, at: now) ?? 0))
        grants[app, default: []].append(settings.continueGrant + over)
        countdowns[app] = nil
        var actions: [EngineAction] = [
            .recordBypass(app: app, mode: decision.mode.rawValue, rule: .limit, granted: settings.continueGrant, at: now),
            .closeNotification(app: app), .statusChanged,
        ]
        if focused?.app.id == app { actions += startCountingOrDisable(at: now) }
        return actions
    }

    // MARK: - Clock

    /// After a jump of the wall clock: the running segment ends at `lastSeen` (never before it
    /// began), and the engine's clock restarts at `now`.
    /// A jump into a later day starts it afresh; a step back into an earlier day takes that day's
    /// bounds, and what was counted stays counted.
    private mutating func rebase(lastSeen: Date, now: Date) -> [EngineAction] {
        let end = max(lastSeen, segmentStart ?? lastSeen)
        var actions = stopCounting(at: end)
        lastEvent = now
        if now >= dayEnd {
            // A new day began while the user was away: nothing of the gap is counted.
            usage = [:]
            elsewhere = UsageElsewhere()
            grants = [:]
            countdowns = [:]
        }
        if now < dayStart || now >= dayEnd {
            dayStart = settings.dayBoundary.start(of: now, in: zone)
            dayEnd = settings.dayBoundary.end(of: now, in: zone)
            actions.append(.statusChanged)
        }
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
            elsewhere = UsageElsewhere()
            grants = [:]
            countdowns = [:]
            dayStart = boundary
            dayEnd = settings.dayBoundary.end(of: boundary, in: zone)
            lastEvent = boundary
            actions += startCountingOrDisable(at: boundary)
            actions.append(.statusChanged)
        }
        return actions
    }
}

/// An app's own daily limit and its groups' limits, as one `Settings` gives them.
private struct LimitRule {
    var own: TimeInterval?
    var groups: [(group: AppGroup, limit: TimeInterval)]

    init(_ app: AppInfo, _ settings: Settings) {
        own = settings.limit(for: app)
        groups = settings.groupLimits(for: app)
    }
}

/// The countdown of one stretch to a limit: the most urgent mark shown, and whether its notice
/// stays on screen (from the last minute) so the later marks update it in place.
private struct Countdown {
    var mark: TimeInterval
    var staysShown: Bool
}

private extension Array where Element == EngineAction {
    /// Appends `more` unless it is empty: most steps of an event add nothing, and appending an
    /// empty array still calls into the generic append and releases the array.
    mutating func add(_ more: [EngineAction]) {
        if !more.isEmpty { append(contentsOf: more) }
    }
}
