import FoundationEssentials

/// Everything that decides the mode.
public struct ModeInputs: Sendable {
    public var schedule: [ScheduleEntry] = []
    public var calendar: [CalendarInterval] = []
    public var manual: ManualSwitch?
    public var cheatDays = CheatDayBook()
    public var sleepTimes = SleepTimes.defaults
    public var sleepActions = SleepActions()
    public var automatic = AutomaticModeSettings()
    public var breaks = ProductivityBreaks()
    /// When the user said `screentime break`.
    public var requestedBreaks: [Date] = []
    /// A disabled mode never starts (Standard is always enabled).
    public var enabledModes = Set(Mode.allCases)

    public init() {}
}

/// Decides which mode is active at an instant, and when it changes next. Precedence: Cheat Day, a
/// manual switch, a scheduled entry (CLI schedule or calendar event), the time-of-day modes, Standard.
///
/// Every source is turned into claims (a mode over an interval); between two claim boundaries
/// nothing changes, so evaluating the boundaries finds every change at its exact instant.
public struct ModeResolver {
    public var inputs: ModeInputs
    public var zone: LocalTimeZone

    /// How far back `since` and the Productivity rhythm look.
    public static let lookBack: TimeInterval = 2 * 86_400
    /// How far ahead changes are searched, widening only while none is found.
    static let horizons: [TimeInterval] = [2 * 86_400, 16 * 86_400, 400 * 86_400]

    public init(inputs: ModeInputs, zone: LocalTimeZone) {
        self.inputs = inputs
        self.zone = zone
    }

    public func resolve(at instant: Date) -> ModeDecision {
        let manual = manualClaim()
        // Widen the look-ahead only while no change is found (a year ahead at most).
        var search = lookAhead(at: instant, horizon: Self.horizons[0], manual: manual)
        for horizon in Self.horizons.dropFirst() where search.next == nil {
            search = lookAhead(at: instant, horizon: horizon, manual: manual)
        }
        let (claims, current, next) = search
        // Walk back over the constant stretches between boundaries to where the mode began.
        let points = [claims.window.lowerBound] + claims.boundaries(after: claims.window.lowerBound, through: instant)
        let modes = claims.resolve(atEach: points).map(\.mode)
        let since = stride(from: points.count - 1, to: 0, by: -1)
            .first { modes[$0 - 1] != current.mode }
            .map { points[$0] }
        var decision = ModeDecision(mode: current.mode, reason: current.reason, since: since,
                                    next: next.map { ModeChange(at: $0.at, mode: $0.mode, reason: $0.reason) })
        if current.mode == .productivity {
            decision.productivityBreak = inputs.breaks.state(at: instant, productivitySince: since ?? inputs.breaks.rhythmStart(before: claims.window.lowerBound),
                                                             requested: inputs.requestedBreaks)
        }
        return decision
    }

    private func lookAhead(at instant: Date, horizon: TimeInterval,
                           manual: Claim?) -> (claims: Claims, current: Resolved, next: Resolved?) {
        let window = instant.addingTimeInterval(-Self.lookBack)..<instant.addingTimeInterval(horizon)
        let claims = Claims(all: (manual.map { [$0] } ?? []) + claims(in: window), window: window)
        let current = claims.resolve(at: instant)
        let next = claims.resolve(atEach: claims.boundaries(after: instant)).first { $0.mode != current.mode }
        return (claims, current, next)
    }

    /// The modes from `start` to `end`, split where the mode changes.
    public func timeline(from start: Date, to end: Date) -> [ModeSegment] {
        let window = Range(from: start.addingTimeInterval(-Self.lookBack), upTo: end)
        let claims = Claims(all: (manualClaim().map { [$0] } ?? []) + claims(in: window), window: window)
        var segments: [ModeSegment] = []
        let boundaries = [start] + claims.boundaries(after: start, through: end).filter { $0 < end }
        for (boundary, resolved) in zip(boundaries, claims.resolve(atEach: boundaries)) {
            if let last = segments.last, last.mode == resolved.mode { continue }
            if !segments.isEmpty { segments[segments.count - 1].end = boundary }
            segments.append(ModeSegment(mode: resolved.mode, reason: resolved.reason, start: boundary, end: end))
        }
        return segments
    }

    // MARK: Claims

    /// The manual switch with its end: the first boundary after `since` where the layers below change.
    func manualClaim() -> Claim? {
        guard let manual = inputs.manual, manual.mode == .standard || inputs.enabledModes.contains(manual.mode),
              manual.mode != .cheatDay else { return nil }
        var end = manual.until
        for horizon in Self.horizons {
            let window = manual.since..<manual.since.addingTimeInterval(horizon)
            let lower = Claims(all: claims(in: window).filter { $0.layer > .manual }, window: window)
            let baseline = lower.resolve(at: manual.since)
            let edges = lower.boundaries(after: manual.since)
            if let change = lower.resolve(atEach: edges).first(where: { $0 != baseline })?.at {
                end = min(end ?? change, change)
                break
            }
            if let until = manual.until, until <= window.upperBound { break }
        }
        if let end, end <= manual.since { return nil }
        return Claim(layer: .manual, mode: manual.mode, reason: .manual(manual, endsAt: end),
                     span: Range(from: manual.since, upTo: end ?? .distantFuture))
    }

    /// Claims of every layer but the manual one that overlap `window`.
    func claims(in window: Range<Date>) -> [Claim] {
        let enabled = inputs.enabledModes
        var claims: [Claim] = []
        // A pause holds whatever modes are on: it is no Cheat Day, only as free as one.
        claims += inputs.cheatDays.bookings
            .filter { $0.pause != nil && $0.respectsNotice && $0.interval.overlaps(window) }
            .map { Claim(layer: .cheatDay, mode: .cheatDay, reason: .cheatDay($0), span: $0.interval) }
        if enabled.contains(.cheatDay) {
            claims += inputs.cheatDays.bookings
                .filter { $0.pause == nil && $0.respectsNotice && $0.interval.overlaps(window) }
                .map { Claim(layer: .cheatDay, mode: .cheatDay, reason: .cheatDay($0), span: $0.interval) }
        }
        for entry in inputs.schedule where entry.mode != .cheatDay && (entry.mode == .standard || enabled.contains(entry.mode)) {
            claims += entry.occurrences(in: window, zone: zone).map {
                Claim(layer: .scheduled, mode: entry.mode, reason: .scheduled(entry), span: $0)
            }
        }
        // A calendar cannot book a Cheat Day: the 12-hour notice needs to know when it was booked.
        for event in inputs.calendar where event.mode != .cheatDay && (event.mode == .standard || enabled.contains(event.mode))
            && event.start < event.end && (event.start..<event.end).overlaps(window) {
            claims.append(Claim(layer: .scheduled, mode: event.mode, reason: .calendar(summary: event.summary, source: event.source),
                                span: event.start..<event.end, fromCalendar: true))
        }
        claims += automaticClaims(in: window)
        return claims
    }

    /// The time-of-day modes; with them off, only the Sleep the user asked for ("Go to bed"),
    /// until the night's Wake Up would begin (or `start-day`).
    func automaticClaims(in window: Range<Date>) -> [Claim] {
        let enabled = inputs.automatic.isEnabled
        guard enabled || inputs.sleepActions.bedtimeAt != nil else { return [] }
        var settings = inputs.automatic
        // Off, no Sleep comes by itself before the one asked for.
        if !enabled { settings.sleepAfterWindDown = 366 * 86_400 }
        let first = zone.localDate(of: window.lowerBound).adding(days: -2)
        let last = zone.localDate(of: window.upperBound).adding(days: 1)
        let nights = (first.daysSinceEpoch...last.daysSinceEpoch).map {
            NightPlan(evening: CivilDate(daysSinceEpoch: $0), sleepTimes: inputs.sleepTimes, actions: inputs.sleepActions,
                      settings: settings, zone: zone)
        }
        var claims: [Claim] = []
        for (index, night) in nights.enumerated() {
            // A night ends where the next one begins, should odd sleep times make them overlap.
            let cutoff = index + 1 < nights.count ? nights[index + 1].span.lowerBound : Date.distantFuture
            for part in night.parts where inputs.enabledModes.contains(part.mode) && (enabled || part.cause.isBedtimeSaid) {
                let span = Range(from: part.span.lowerBound, upTo: min(part.span.upperBound, cutoff))
                if !span.isEmpty, span.overlaps(window) {
                    claims.append(Claim(layer: .automatic, mode: part.mode, reason: .automatic(part.cause), span: span))
                }
            }
        }
        return claims
    }
}

/// A source's claim that `mode` holds over `span`.
struct Claim {
    enum Layer: Int, Comparable {
        case cheatDay, manual, scheduled, automatic
        static func < (a: Layer, b: Layer) -> Bool { a.rawValue < b.rawValue }
    }

    var layer: Layer
    var mode: Mode
    var reason: ModeReason
    var span: Range<Date>
    var fromCalendar = false
}

/// The winning claim at `at`. Equal when mode and reason are (wherever they were evaluated).
struct Resolved: Equatable {
    var at: Date
    var mode: Mode
    var reason: ModeReason

    static func == (a: Resolved, b: Resolved) -> Bool { a.mode == b.mode && a.reason == b.reason }
}

/// The claims over a window, and the rule picking one at an instant.
struct Claims {
    let all: [Claim]
    let window: Range<Date>

    /// The highest layer wins; among overlapping scheduled entries the one that started last (the
    /// newer plan), then a CLI entry before a calendar event.
    func resolve(at instant: Date) -> Resolved {
        winner(at: instant, among: all.indices.filter { all[$0].span.contains(instant) })
    }

    /// `resolve(at:)` at each of `points` (ascending) in one sweep over the claims, so a long
    /// stretch without a change (a year ahead is searched) costs claims plus points, not their product.
    func resolve(atEach points: [Date]) -> [Resolved] {
        let byStart = all.indices.sorted { all[$0].span.lowerBound < all[$1].span.lowerBound }
        var started = 0
        var active: [Int] = []
        return points.map { point in
            while started < byStart.count, all[byStart[started]].span.lowerBound <= point {
                active.append(byStart[started])
                started += 1
            }
            active.removeAll { all[$0].span.upperBound <= point }
            return winner(at: point, among: active)
        }
    }

    /// The winner among claims in force at `instant` (by index: no claim is copied on the way).
    /// Whatever order the candidates come in, the same claim wins, so a sweep and a single
    /// resolution never disagree.
    private func winner(at instant: Date, among candidates: [Int]) -> Resolved {
        guard let winner = candidates.min(by: beats) else { return Resolved(at: instant, mode: .standard, reason: .standard) }
        return Resolved(at: instant, mode: all[winner].mode, reason: all[winner].reason)
    }

    /// Whether claim `a` wins over claim `b`; the earlier claim in `all` breaks a full tie.
    private func beats(_ a: Int, _ b: Int) -> Bool {
        if all[a].layer != all[b].layer { return all[a].layer < all[b].layer }
        if all[a].span.lowerBound != all[b].span.lowerBound { return all[a].span.lowerBound > all[b].span.lowerBound }
        if all[a].fromCalendar != all[b].fromCalendar { return !all[a].fromCalendar }
        return a < b
    }

    /// Claim boundaries after `instant` (and up to `limit`, else inside the window), in order.
    /// The window's own end is left out: a claim starting there was not gathered, so what holds
    /// there is not known (a wider window finds it).
    func boundaries(after instant: Date, through limit: Date? = nil) -> [Date] {
        var set = Set<Date>()
        for claim in all {
            for edge in [claim.span.lowerBound, claim.span.upperBound]
            where edge > instant && (limit.map { edge <= $0 } ?? (edge < window.upperBound)) {
                set.insert(edge)
            }
        }
        return set.sorted()
    }
}
