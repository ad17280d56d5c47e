import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// What each mode does for the user beyond disabling apps, on the virtual clock: breaks with their
/// card and their end, do-not-disturb, the card on unlock, Wake Up's run-down, the mode notice's actions.
final class ModeMomentsTests: XCTestCase {
    /// 2026-11-29 08:00 local (UTC+1).
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600)
    let zone = FixedOffsetZone(seconds: 3600)
    let builder = AppInfo(id: "org.gnome.Builder", name: "Builder", categories: ["GNOME", "GTK", "Development", "IDE"])
    let mpv = AppInfo(id: "mpv", name: "mpv", icon: "mpv", categories: ["AudioVideo", "Video", "Player"])

    func focus(_ app: AppInfo) -> EngineEvent {
        .focus(FocusedApp(app: app, window: WindowID(UInt64(app.id.rawValue.count)), title: ""))
    }

    func driver(_ settings: Settings = Settings()) -> EngineDriver {
        EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
    }

    func decision(_ mode: Mode, _ breaks: ProductivityBreakState? = nil) -> ModeDecision {
        ModeDecision(mode: mode, reason: .manual(ManualSwitch(mode: mode, since: morning), endsAt: nil),
                     since: morning, productivityBreak: breaks)
    }

    /// The local time of `date` on the test's morning, to the second: `09:05:00`.
    func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince(morning)) + 8 * 3600
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
    }

    /// `screentime mode productivity` at 08:00, breaks every hour for 5 minutes, one asked for at
    /// 09:30. The agent decides the mode again at every edge it knows of, as the agent does; the
    /// engine moves on at its own deadlines in between.
    func testAProductivityMorningWithTwoBreaksAndOneOnDemandAtExactTimes() {
        var settings = Settings()
        settings.content.breakActivities = ["Stretch your back", "Fetch a glass of water"]
        var driver = driver(settings)
        var inputs = ModeInputs()
        inputs.automatic.isEnabled = false
        inputs.manual = ManualSwitch(mode: .productivity, since: morning)
        func resolve(_ driver: inout EngineDriver) {
            driver.send(.mode(ModeResolver(inputs: inputs, zone: zone).resolve(at: driver.now)))
        }
        resolve(&driver)
        driver.send(focus(builder))
        let at = { (minutes: Double) in self.morning.addingTimeInterval(minutes * 60) }
        for edge in [60, 65, 90, 95, 155, 160, 180.0] {
            driver.advance(to: at(edge))
            if edge == 90 { inputs.requestedBreaks.append(driver.now) }
            resolve(&driver)
        }

        let breakCards = driver.cards.filter { $0.request.occasion == .breakStarted }
        XCTAssertEqual(breakCards.map { clock($0.at) }, ["09:00:00", "09:30:00", "10:35:00"])
        XCTAssertEqual(breakCards.map { $0.request.breakEndsAt.map(clock) }, ["09:05:00", "09:35:00", "10:40:00"])
        XCTAssertEqual(breakCards.map(\.request.activity), ["Stretch your back", "Fetch a glass of water", "Stretch your back"],
                       "the user's list, in turn")
        XCTAssertEqual(breakCards.map(\.request.mode), [.productivity, .productivity, .productivity])
        XCTAssertEqual(driver.cards.count, 3, "no other card: \(driver.cards)")
        XCTAssertTrue(driver.notifications.isEmpty, "Builder is never disabled")

        let fallback = driver.log.compactMap { if case .showCard(_, let fallback) = $0.action { fallback } else { nil } }.first
        XCTAssertEqual(fallback?.summary, "Time for a 5 min break")
        XCTAssertTrue(fallback?.body.hasPrefix("A suggestion for it: Stretch your back. How you spend it is up to you.") == true,
                      fallback?.body ?? "")

        let notices = driver.modeNotices
        XCTAssertEqual(notices.map { "\(clock($0.at)) \($0.request.summary)" },
                       ["08:00:00 Productivity mode", "09:05:00 Your break is over", "09:35:00 Your break is over",
                        "10:40:00 Your break is over"])
        XCTAssertTrue(notices.dropFirst().allSatisfy { $0.request.body.contains("Your next break is in 1 h;") },
                      "\(notices.map(\.request.body))")

        XCTAssertEqual(driver.doNotDisturb.map { "\(clock($0.at)) \($0.policy.rawValue)" },
                       ["08:00:00 silenced", "09:00:00 normal", "09:05:00 silenced", "09:30:00 normal", "09:35:00 silenced",
                        "10:35:00 normal", "10:40:00 silenced"])
        XCTAssertEqual(driver.displayFilters.map { "\(clock($0.at)) \($0.filter.rawValue)" },
                       ["08:00:00 grayscale", "09:00:00 none", "09:05:00 grayscale", "09:30:00 none", "09:35:00 grayscale",
                        "10:35:00 none", "10:40:00 grayscale"])
        XCTAssertEqual(driver.engine.used("org.gnome.Builder", at: driver.now), 3 * 3600, "breaks do not stop an allowed app")
    }

    /// The notices go out before the server is silenced: do-not-disturb is the list's last action.
    func testDoNotDisturbComesAfterTheNoticesOfTheMoment() {
        var driver = driver()
        driver.send(.mode(decision(.productivity)))
        XCTAssertEqual(driver.log.last?.action, .setDoNotDisturb(.silenced))
    }

    func testDoNotDisturbFollowsEveryModeAndIsNeverAskedTwice() {
        var driver = driver()
        driver.send(focus(builder))
        XCTAssertTrue(driver.doNotDisturb.isEmpty, "nothing before the first mode")
        driver.send(.mode(ModeDecision.standard))
        for mode in [Mode.productivity, .social, .windDown, .sleep, .wakeUp, .cheatDay, .standard, .standard] {
            driver.advance(by: 600)
            driver.send(.mode(decision(mode)))
            driver.send(.settings(Settings()))
            driver.send(.activity(active: false))
            driver.send(.activity(active: true))
        }
        XCTAssertEqual(driver.doNotDisturb.map(\.policy),
                       [.normal, .silenced, .onlyCallsMessagesAndChosenApps, .silenced, .heldAndSummarised, .normal],
                       "Sleep after Wind Down stays silenced without asking again; Cheat Day and Standard are normal")
    }

    func testWindDownNoticeOffersGoToBedAndStayUpAndWakeUpStartTheDay() {
        var settings = Settings()
        settings.modes.automatic.stayUpPause = 45 * 60
        var driver = driver(settings)
        for mode in [Mode.productivity, .windDown, .sleep, .wakeUp] { driver.send(.mode(decision(mode))) }
        let notices = Dictionary(uniqueKeysWithValues: driver.modeNotices.map { ($0.request.summary, $0.request) })
        XCTAssertEqual(notices["Wind Down mode"]?.actions,
                       [NotificationAction(key: CardChoice.bedtime, label: "Go to bed"), NotificationAction(key: CardChoice.stayUp, label: "Stay up")])
        XCTAssertTrue(notices["Wind Down mode"]?.body.contains("Stay up pauses Wind Down for 45 min. Your choice.") == true)
        XCTAssertEqual(notices["Wake Up mode"]?.actions, [NotificationAction(key: CardChoice.startDay, label: "Start the day")])
        XCTAssertEqual(notices["Productivity mode"]?.actions, [])
        XCTAssertEqual(notices["Sleep mode"]?.actions, [])
    }

    func testUnlockShowsTheModesCardInProductivitySocialSleepAndWakeUpOnly() {
        var driver = driver()
        let nextBreak = morning.addingTimeInterval(40 * 60)
        var shown: [Mode: CardRequest] = [:]
        for mode in Mode.allCases {
            driver.send(.mode(decision(mode, mode == .productivity ? .working(nextBreak: nextBreak) : nil)))
            // Wake Up's run-down comes first; this is about the unlock card.
            driver.send(.activity(active: false))
            driver.send(.activity(active: true))
            driver.clearLog()
            driver.send(.unlocked)
            if let card = driver.cards.first?.request { shown[mode] = card }
            XCTAssertLessThanOrEqual(driver.cards.count, 1)
        }
        XCTAssertEqual(Set(shown.keys), [.productivity, .social, .sleep, .wakeUp])
        XCTAssertEqual(Set(shown.values.map(\.occasion)), [.unlocked])
        XCTAssertEqual(shown[.productivity]?.nextBreakAt, nextBreak)
        XCTAssertNil(shown[.social]?.nextBreakAt)

        driver.send(.mode(decision(.productivity, .working(nextBreak: nextBreak))))
        driver.clearLog()
        driver.send(.unlocked)
        let fallback = driver.log.compactMap { if case .showCard(_, let fallback) = $0.action { fallback } else { nil } }.first
        XCTAssertEqual(fallback?.summary, "Welcome back: Productivity mode")
        XCTAssertTrue(fallback?.body.contains("Your next break is in 40 min.") == true, fallback?.body ?? "")
        XCTAssertTrue(NotificationLedger.hasContext(fallback!))
    }

    func testUnlockDuringABreakSaysWhenItEnds() {
        var driver = driver()
        let until = morning.addingTimeInterval(5 * 60)
        driver.send(.mode(decision(.productivity, .onBreak(since: morning, until: until))))
        driver.advance(by: 60)
        driver.clearLog()
        driver.send(.unlocked)
        XCTAssertEqual(driver.cards.first?.request.breakEndsAt, until)
        XCTAssertNil(driver.cards.first?.request.nextBreakAt)
    }

    func testAnAppOpenedDuringABreakGetsTheBreaksActivityAndEnd() {
        var driver = driver()
        let until = morning.addingTimeInterval(5 * 60)
        driver.send(.mode(decision(.productivity, .onBreak(since: morning, until: until))))
        let suggested = driver.cards.first?.request.activity
        XCTAssertNotNil(suggested)
        driver.advance(by: 60)
        driver.clearLog()
        driver.send(focus(mpv))
        let card = driver.cards.first?.request
        XCTAssertEqual(card?.occasion, .notAllowed)
        XCTAssertEqual(card?.breakEndsAt, until)
        XCTAssertEqual(card?.activity, suggested)

        driver.advance(to: until.addingTimeInterval(60))
        driver.clearLog()
        driver.send(focus(builder))
        driver.send(focus(mpv))
        XCTAssertNil(driver.cards.first?.request.breakEndsAt, "the break is over")
        XCTAssertNil(driver.cards.first?.request.activity)
    }

    func testWakeUpRundownAtTheFirstActivityOncePerWakeUp() {
        var driver = driver()
        driver.send(.activity(active: false))
        driver.send(.mode(decision(.wakeUp)))
        driver.advance(by: 1800)
        XCTAssertTrue(driver.cards.isEmpty, "nobody is there yet")
        driver.send(.activity(active: true))
        let rundown = driver.cards.map(\.request)
        XCTAssertEqual(rundown.map(\.occasion), [.rundown])
        XCTAssertEqual(rundown.first?.mode, .wakeUp)
        XCTAssertEqual(rundown.first?.at, morning.addingTimeInterval(1800))
        let fallback = driver.log.compactMap { if case .showCard(_, let fallback) = $0.action { fallback } else { nil } }.first
        XCTAssertEqual(fallback?.summary, "Good morning")
        XCTAssertTrue(fallback?.body.contains("`screentime rundown`") == true)

        // Later activity, focus and an unlock: no second run-down; the unlock shows Wake Up's card.
        driver.clearLog()
        driver.send(focus(builder))
        driver.send(.activity(active: false))
        driver.send(.activity(active: true))
        driver.send(.unlocked)
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.unlocked])

        // The next Wake Up has its own, at a focus change while the user is there.
        driver.send(.mode(ModeDecision.standard))
        driver.send(.mode(decision(.wakeUp)))
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.unlocked], "not at the mode change itself")
        driver.send(focus(mpv))
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.unlocked, .rundown])

        // An unlock (sent before the activity it brings) shows the run-down instead of the unlock card.
        driver.send(.mode(ModeDecision.standard))
        driver.send(.activity(active: false))
        driver.send(.mode(decision(.wakeUp)))
        driver.clearLog()
        driver.send(.unlocked)
        driver.send(.activity(active: true))
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.rundown])
    }

    func testBreakActivitiesFallBackToTheBuiltInListWhenTheUsersIsEmpty() {
        var settings = Settings()
        settings.content.breakActivities = []
        var driver = driver(settings)
        driver.send(.mode(decision(.productivity, .working(nextBreak: morning.addingTimeInterval(3600)))))
        driver.advance(by: 3 * 3600)
        XCTAssertEqual(driver.cards.map(\.request.activity), Array(ModeContentSettings.defaultBreakActivities.prefix(2)),
                       "breaks at 09:00 and 10:05")
    }
}
