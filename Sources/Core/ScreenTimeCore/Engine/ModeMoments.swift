import FoundationEssentials

/// The moments a mode speaks to the user besides disabling apps, and what the notification server
/// lets through: a Productivity break's card and its end, the card on unlocking, Wake Up's morning
/// run-down, and do-not-disturb following the profile in force. Part of the engine's state.
struct ModeMoments: Sendable {
    /// Modes whose card greets the user when the session is unlocked (the study's "upon unlocking").
    static let cardOnUnlock: Set<Mode> = [.productivity, .social, .sleep, .wakeUp]

    /// The policy last asked of the notification server; nil until the first mode.
    private(set) var doNotDisturb: NotificationPolicy?
    /// Where the next break's suggestion is in the wellness list: each break suggests the next one.
    private var nextActivity = 0
    /// The activity the break under way suggested, for the card of an app opened during it.
    private(set) var breakActivity: String?
    /// Wake Up's run-down is still to be shown in this Wake Up.
    private(set) var rundownDue = false

    /// A new mode began: a Wake Up has its run-down ahead.
    mutating func modeStarted(_ mode: Mode) { rundownDue = mode == .wakeUp }

    /// Asks for `policy` unless it is the one already asked for.
    mutating func follow(_ policy: NotificationPolicy) -> [EngineAction] {
        guard policy != doNotDisturb else { return [] }
        doNotDisturb = policy
        return [.setDoNotDisturb(policy)]
    }

    /// The break's card: one activity away from the desk, the user's own in turn (the built-in
    /// list when theirs is empty).
    mutating func breakStarted(since: Date, until: Date, activities: [String], at now: Date) -> EngineAction {
        let list = activities.isEmpty ? ModeContentSettings.defaultBreakActivities : activities
        let activity = list[nextActivity % list.count]
        nextActivity = nextActivity % list.count + 1
        breakActivity = activity
        let card = CardRequest(occasion: .breakStarted, mode: .productivity, breakEndsAt: until, activity: activity, at: now)
        return .showCard(card, fallback: Wording.breakStarted(length: until.timeIntervalSince(since), activity: activity))
    }

    /// The break is over; `nextBreak` is when the next one is due, if one is.
    func breakEnded(nextBreak: Date?, at now: Date) -> EngineAction {
        .notifyMode(Wording.breakEnded(nextBreakIn: nextBreak.map { $0.timeIntervalSince(now) }))
    }

    /// The session was unlocked: the mode's card where the mode greets the user then; in a Wake Up
    /// whose run-down is still due, the run-down instead.
    mutating func unlocked(_ decision: ModeDecision, at now: Date) -> [EngineAction] {
        if rundownDue { return rundown(at: now) }
        guard Self.cardOnUnlock.contains(decision.mode) else { return [] }
        var nextBreakAt: Date?, breakEndsAt: Date?
        if decision.mode == .productivity {
            switch decision.productivityBreak {
            case .working(let next)? where next > now: nextBreakAt = next
            case .onBreak(let since, let until)? where since <= now && now < until: breakEndsAt = until
            default: break
            }
        }
        let card = CardRequest(occasion: .unlocked, mode: decision.mode, nextBreakAt: nextBreakAt, breakEndsAt: breakEndsAt, at: now)
        let fallback = Wording.unlocked(decision.mode, nextBreakIn: nextBreakAt.map { $0.timeIntervalSince(now) },
                                        breakLeft: breakEndsAt.map { $0.timeIntervalSince(now) })
        return [.showCard(card, fallback: fallback)]
    }

    /// The user is at the computer: Wake Up's run-down, once per Wake Up.
    mutating func rundown(at now: Date) -> [EngineAction] {
        guard rundownDue else { return [] }
        rundownDue = false
        return [.showCard(CardRequest(occasion: .rundown, mode: .wakeUp, at: now), fallback: Wording.rundownReady())]
    }
}
