import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The engine driven by long seeded random runs, as the agent drives it: focus, titles, activity,
/// settings with extreme values, continues, modes from the resolver, ticks at every deadline, and
/// the wall clock stepped back and forward (up to 30 days), across day boundaries and
/// daylight-saving changes, the session locked and unlocked. After every event the counting must
/// hold up, do-not-disturb must be the mode's, and cards must come only where they belong.
final class EngineRandomTests: XCTestCase {
    static let apps = [
        AppInfo(id: "firefox", name: "Firefox", categories: ["Network", "WebBrowser"]),
        AppInfo(id: "mpv", name: "mpv", categories: ["AudioVideo", "Video"]),
        AppInfo(id: "org.gnome.Builder", name: "Builder", categories: ["Development", "IDE"]),
        AppInfo(id: "org.gnome.Calls", name: "Calls", categories: ["Telephony"]),
        AppInfo(id: "keepassxc", name: "KeePassXC", categories: ["Utility", "Security"]),
    ]

    struct Run {
        var random: SplitMix64
        let zone: LocalTimeZone
        var now: Date
        var engine: Engine
        var inputs = ModeInputs()
        var decision = ModeDecision.standard
        /// The interval begun and not yet ended.
        var open: (app: AppID, at: Date)?
        /// Where the last interval ended, since the clock last jumped (intervals of one stretch of
        /// the clock must not overlap; a step back starts a new stretch).
        var lastEnd: Date?
        /// Time lived (not jumped over) since the engine's day began counting afresh.
        var livedToday: TimeInterval = 0
        var lived: TimeInterval = 0
        var counted: TimeInterval = 0
        var steps = 0
        /// Do-not-disturb as last asked; nil before the first mode.
        var doNotDisturb: NotificationPolicy?
        /// Run-downs shown since the mode last changed.
        var rundowns = 0
        /// Cards asked for, per occasion (printed: the invariants about them were exercised).
        var cards: [CardRequest.Occasion: Int] = [:]

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            zone = random.chance(0.5) ? CentralEuropeanZone() : FixedOffsetZone(seconds: Int.random(in: -12...14, using: &random) * 3600)
            now = Date(timeIntervalSince1970: TimeInterval.random(in: 1e9...2.1e9, using: &random).rounded())
            engine = Engine(settings: Settings(), zone: zone, now: now)
            inputs.automatic = random.automaticSettings()
        }

        var position: String { "seed \(random.seed), step \(steps), at \(zone.localDateTime(of: now)) (\(now.timeIntervalSince1970))" }

        mutating func settings() -> Settings {
            var settings = Settings()
            settings.defaultLimit = random.duration(DurationBounds.limit)
            for app in Self.appsSample(&random) { settings.limits[app.id] = random.duration(DurationBounds.limit) }
            if random.chance(0.3) { settings.important = [random.pick(EngineRandomTests.apps).id] }
            if random.chance(0.3) { settings.essential = [random.pick(EngineRandomTests.apps).id] }
            settings.dayBoundary = DayBoundary(startMinute: random.chance(0.5) ? 240 : Int.random(in: 0..<1440, using: &random))
            settings.countdownMarks = (0..<Int.random(in: 0...6, using: &random)).map { _ in random.duration(DurationBounds.countdownMark) }
                .sorted(by: >)
            settings.continueGrant = random.duration(DurationBounds.continueFor)
            if random.chance(0.5) {
                // A title rule's virtual app comes and goes with the title, as focus moving would.
                settings.titleRules = [TitleRule(name: "youtube", matches: [TitleRule.Match(app: "firefox", title: "YouTube")])]
                settings.limits["youtube"] = random.duration(DurationBounds.limit)
            }
            for mode in Mode.allCases where random.chance(0.3) { settings.modes.bypassGrants[mode] = random.duration(DurationBounds.bypass) }
            return settings
        }

        static func appsSample(_ random: inout SplitMix64) -> [AppInfo] { EngineRandomTests.apps.filter { _ in random.chance(0.4) } }

        static func isBreakOver(_ action: EngineAction) -> Bool {
            if case .notifyMode(let notice) = action { notice.summary == "Your break is over" } else { false }
        }

        /// Hands one event to the engine at now and checks what it did.
        mutating func send(_ event: EngineEvent) {
            let before = engine.dayStart
            let actions = engine.handle(event, at: now)
            if case .settings = event {} else if engine.dayStart > before {
                // A new day: counting starts afresh (at its boundary, or at now after a jump).
                livedToday = now.timeIntervalSince(engine.dayStart)
                if case .clockJumped = event { livedToday = 0 }
            }
            check(actions, after: event)
            steps += 1
        }

        mutating func check(_ actions: [EngineAction], after event: EngineEvent) {
            for (index, action) in actions.enumerated() {
                switch action {
                case .setDoNotDisturb(let policy):
                    XCTAssertNotEqual(policy, doNotDisturb, "do-not-disturb asked twice in a row: \(position)")
                    doNotDisturb = policy
                case .recordModeChange:
                    rundowns = 0
                case .showCard(let card, _):
                    cards[card.occasion, default: 0] += 1
                    if let app = card.app?.id {
                        XCTAssertTrue(actions[..<index].contains(.minimize(app)), "a card about \(app) before its minimize: \(position)")
                    }
                    switch card.occasion {
                    case .rundown:
                        rundowns += 1
                        XCTAssertLessThanOrEqual(rundowns, 1, "a second run-down in one Wake Up: \(position)")
                        XCTAssertEqual(engine.decision.mode, .wakeUp, "a run-down outside Wake Up: \(position)")
                    case .unlocked:
                        XCTAssertTrue([.productivity, .social, .sleep, .wakeUp].contains(card.mode), "an unlock card in \(card.mode): \(position)")
                        XCTAssertEqual(event, .unlocked, "an unlock card with no unlock: \(position)")
                    case .breakStarted:
                        XCTAssertGreaterThan(card.breakEndsAt ?? .distantPast, now, "a break card for a break already over: \(position)")
                        // The agent's decision may end at once a break the engine began by itself
                        // (the rhythm moved: a break asked for "later" after the clock stepped
                        // back); the user is then told it is over.
                        if !engine.decision.isOnBreak(at: now) {
                            XCTAssertTrue(actions[index...].contains(where: Self.isBreakOver), "a break card off a break, its end untold: \(position)")
                        }
                    case .limitReached, .notAllowed:
                        XCTAssertNotNil(card.app, "a disable card about no app: \(position)")
                    }
                case .beginInterval(let app, _, _, let at):
                    XCTAssertNil(open, "an interval begun inside another: \(position)")
                    if let lastEnd { XCTAssertGreaterThanOrEqual(at, lastEnd, "an interval overlapping the last one: \(position)") }
                    XCTAssertLessThanOrEqual(at, now, "an interval begun in the future: \(position)")
                    if case .clockJumped = event { XCTAssertEqual(at, now, "counting resumed before the new now: \(position)") }
                    open = (app, at)
                case .endInterval(let at):
                    guard let begun = open else { XCTFail("an interval ended that was not begun: \(position)"); continue }
                    XCTAssertGreaterThanOrEqual(at, begun.at, "an interval of negative length: \(position)")
                    if case .clockJumped(let lastSeen) = event {
                        XCTAssertLessThanOrEqual(at, max(lastSeen, begun.at), "a clock jump was counted: \(position)")
                    }
                    counted += max(0, at.timeIntervalSince(begun.at))
                    lastEnd = at
                    open = nil
                    // After a jump the clock starts a new stretch: what follows is compared with it alone.
                    if case .clockJumped = event { lastEnd = nil }
                default: break
                }
            }
            if doNotDisturb != nil {
                XCTAssertEqual(doNotDisturb, engine.profile.notifications, "do-not-disturb is not the mode's: \(position)")
                if [.standard, .cheatDay].contains(engine.decision.mode) {
                    XCTAssertEqual(doNotDisturb, .normal, "\(engine.decision.mode) keeps notifications silenced: \(position)")
                }
            } else if case .mode = event {
                XCTFail("the first mode sets no do-not-disturb: \(position)")
            }
            XCTAssertEqual(engine.isCounting, open != nil, "the engine and its intervals disagree: \(position)")
            if engine.isCounting, let app = engine.focused?.app.id {
                XCTAssertTrue(engine.modeAllows(app, at: now), "counting \(app), which \(engine.decision.mode) does not allow: \(position)")
                // Past its limit only on the mode's continue, whose end is the next word about it.
                XCTAssertFalse(engine.isOverLimit(app, at: now) && !engine.modeBypassCovers(app, at: now),
                               "counting \(app) past its limit: \(position)")
            }
            if let deadline = engine.nextDeadline() { XCTAssertGreaterThan(deadline, now, "a deadline not in the future: \(position)") }
            let used = (EngineRandomTests.apps.map(\.id) + ["youtube"]).map { engine.used($0, at: now) }
            XCTAssertTrue(used.allSatisfy { $0 >= 0 }, "negative time: \(position)")
            XCTAssertLessThanOrEqual(used.reduce(0, +), livedToday + 1e-3, "more counted today than lived: \(position)")
            XCTAssertLessThanOrEqual(counted, lived + 1e-3, "more counted than lived: \(position)")
        }

        /// Lets time pass to `target`, ticking at every deadline and changing the mode when decided.
        mutating func advance(to target: Date) {
            while true {
                let modeDue = [decision.next?.at, breakEdge()].compactMap { $0 }.filter { $0 > now }.min()
                let due = [engine.nextDeadline(), modeDue].compactMap { $0 }.min()
                guard let due, due <= target else { break }
                guard due > now else { return XCTFail("a deadline that does not move on: \(position)") }
                pass(to: due)
                if let modeDue, due >= modeDue { resolve() } else { send(.tick) }
            }
            pass(to: target)
        }

        mutating func pass(to instant: Date) {
            let step = max(0, instant.timeIntervalSince(now))
            lived += step
            livedToday += step
            now = max(now, instant)
        }

        func breakEdge() -> Date? {
            switch decision.productivityBreak {
            case .working(let next)?: return next
            case .onBreak(_, let until)?: return until
            case nil: return nil
            }
        }

        mutating func resolve() {
            decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
            send(.mode(decision))
        }

        mutating func step() {
            let app = random.pick(EngineRandomTests.apps)
            switch Int.random(in: 0..<21, using: &random) {
            case 0..<4:
                send(.focus(random.chance(0.15) ? nil : FocusedApp(app: app, window: WindowID(UInt64(app.id.rawValue.count)),
                                                                   title: random.pick(["", "a", "b"]))))
            case 4: send(.title(random.pick(["", "a", "b", "YouTube"])))
            case 5, 6: send(.activity(active: random.chance(0.6)))
            case 7: send(.settings(settings()))
            case 8: send(.notificationAction(app: app.id, key: random.chance(0.8) ? ActionKey.continue : ActionKey.ok))
            case 9: send(.continueRequested(app.id))
            case 10:
                inputs.manual = random.chance(0.3) ? nil : ManualSwitch(mode: random.pick(Mode.switchable), since: now)
                resolve()
            case 11:
                if random.chance(0.5) { inputs.requestedBreaks.append(now) } else { inputs.sleepActions.bedtimeAt = now }
                resolve()
            case 12:
                // The wall clock steps: the user was last seen now, the clock reads something else.
                let lastSeen = now
                let month: TimeInterval = 30 * 86_400
                now = now.addingTimeInterval(random.chance(0.3) ? random.pick([-month, month]) : random.seconds(-month...month))
                lastEnd = nil
                send(.clockJumped(lastSeen: lastSeen))
                resolve()
            case 13:
                // An unlock, then the activity it brings, as the agent sends them.
                send(.unlocked)
                send(.activity(active: true))
            default:
                advance(to: now.addingTimeInterval(random.chance(0.8) ? random.seconds(1...1800) : random.seconds(1...2 * 86_400)))
            }
        }
    }

    func testSeededRandomRuns() {
        let environment = ProcessInfo.processInfo.environment
        let seeds = SplitMix64.seeds(count: 8, environment: environment)
        let stepsPerSeed = Int(environment["SCREENTIME_ENGINE_STEPS"] ?? "") ?? 1_500
        var (steps, lived) = (0, 0.0)
        var cards: [CardRequest.Occasion: Int] = [:]
        for seed in seeds {
            var run = Run(seed: seed)
            run.resolve()
            while run.steps < stepsPerSeed { run.step() }
            steps += run.steps
            lived += run.lived
            cards.merge(run.cards, uniquingKeysWith: +)
        }
        let cardCounts = cards.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        print("Engine random runs: \(steps) steps, \(Int(lived / 86_400)) simulated days, cards \(cardCounts.joined(separator: ", ")), seeds \(seeds.map(String.init).joined(separator: ","))")
    }
}
