import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

final class EngineModeTests: XCTestCase {
    /// 2026-11-29 08:00 local (UTC+1).
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600)
    let zone = FixedOffsetZone(seconds: 3600)
    let firefox = AppInfo(id: "firefox", name: "Firefox", icon: "firefox", categories: ["Network", "WebBrowser"])
    let mpv = AppInfo(id: "mpv", name: "mpv", icon: "mpv", categories: ["AudioVideo", "Video", "Player"])
    let builder = AppInfo(id: "org.gnome.Builder", name: "Builder", categories: ["GNOME", "GTK", "Development", "IDE"])
    let calls = AppInfo(id: "org.gnome.Calls", name: "Calls", categories: ["GTK", "Telephony"])
    let keepass = AppInfo(id: "keepassxc", name: "KeePassXC", categories: ["Utility", "Security"])

    func focus(_ app: AppInfo, _ title: String = "") -> EngineEvent {
        .focus(FocusedApp(app: app, window: WindowID(UInt64(app.id.rawValue.count)), title: title))
    }

    func driver(_ settings: Settings = Settings()) -> EngineDriver {
        EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
    }

    func decision(_ mode: Mode, _ breaks: ProductivityBreakState? = nil) -> ModeDecision {
        ModeDecision(mode: mode, reason: .manual(ManualSwitch(mode: mode, since: morning), endsAt: nil),
                     since: morning, productivityBreak: breaks)
    }

    func testProductivityDisablesAContentAppAtOnceAndBypassLastsThreeMinutes() {
        var driver = driver()
        driver.send(focus(mpv, "A film"))
        driver.advance(by: 60)
        driver.send(.mode(decision(.productivity, .working(nextBreak: morning.addingTimeInterval(3660)))))
        XCTAssertEqual(driver.minimizes.map(\.app), ["mpv"], "disabled at the switch, not at the next focus")
        let offer = driver.notifications.last { $0.app == "mpv" }
        XCTAssertEqual(offer?.request.actions.map(\.label), ["3 more minutes", "OK"])
        XCTAssertTrue(offer?.request.body.contains("Your next break is in 1 h") == true, offer?.request.body ?? "")
        XCTAssertFalse(driver.engine.isCounting)

        driver.clearLog()
        let continuedAt = driver.now
        driver.send(.notificationAction(app: "mpv", key: ActionKey.continue))
        XCTAssertEqual(driver.bypasses.map(\.mode), ["productivity"])
        XCTAssertEqual(driver.bypasses.map(\.granted), [180])
        XCTAssertEqual(driver.intervals.map(\.mode), ["productivity"])
        driver.advance(by: 10 * 60)
        XCTAssertEqual(driver.minimizes.map(\.at), [continuedAt.addingTimeInterval(180)], "exactly 3 minutes")
        XCTAssertEqual(driver.engine.used("mpv", at: driver.now), 60 + 180)

        // Another continue, another 3 minutes, recorded again.
        driver.send(.continueRequested("mpv"))
        XCTAssertEqual(driver.bypasses.count, 2)
    }

    func testProductivityKeepsADevelopmentAppAndAnEssentialOne() {
        var driver = driver()
        driver.send(.mode(decision(.productivity)))
        driver.send(focus(builder))
        driver.advance(by: 30 * 60)
        driver.send(focus(calls))
        driver.advance(by: 30 * 60)
        XCTAssertTrue(driver.minimizes.isEmpty)
        XCTAssertEqual(driver.engine.used("org.gnome.Builder", at: driver.now), 30 * 60)
        XCTAssertEqual(driver.engine.used("org.gnome.Calls", at: driver.now), 30 * 60)
    }

    func testModeChangeEmitsFilterOneNotificationAndRecord() {
        var driver = driver()
        driver.send(focus(builder))
        driver.advance(by: 60)
        driver.send(.mode(decision(.productivity)))
        let actions = driver.log.map(\.action)
        XCTAssertTrue(actions.contains(.setDisplayFilter(.grayscale)))
        XCTAssertTrue(actions.contains(.recordModeChange(mode: .productivity, reason: decision(.productivity).reason, at: driver.now)))
        let modeNotes = actions.compactMap { if case .notifyMode(let request) = $0 { return request } else { return nil } }
        XCTAssertEqual(modeNotes.map(\.icon), ["screentime-productivity"])
        XCTAssertEqual(modeNotes.map(\.body),
                       [Mode.productivity.summary + " `screentime status` says why and until when; `screentime mode` changes it."])
        // The interval is split so each part carries its mode.
        XCTAssertEqual(driver.intervals.map(\.mode), ["standard", "productivity"])

        // The same decision again (e.g. a new `next`) changes nothing.
        driver.clearLog()
        driver.send(.mode(decision(.productivity)))
        XCTAssertEqual(driver.log.map(\.action), [.statusChanged])

        // Back to Standard: colour back.
        driver.send(.mode(ModeDecision.standard))
        XCTAssertTrue(driver.log.contains { $0.action == .setDisplayFilter(.none) })
    }

    func testModeChangeEndsTheOldModesBypasses() {
        var driver = driver()
        driver.send(.mode(decision(.social)))
        driver.send(focus(mpv))
        driver.send(.notificationAction(app: "mpv", key: ActionKey.continue))
        XCTAssertTrue(driver.engine.isCounting)
        driver.advance(by: 60)
        driver.clearLog()
        driver.send(.mode(decision(.windDown)))
        XCTAssertEqual(driver.minimizes.map(\.app), ["mpv"], "Social's bypass does not carry into Wind Down")
    }

    func testWindDownOffersCalmAlternativesAndAnHour() {
        var driver = driver()
        driver.send(.mode(decision(.windDown)))
        XCTAssertTrue(driver.log.contains { $0.action == .setDisplayFilter(.warmGrayscale) })
        driver.send(focus(firefox, "News"))
        let offer = driver.notifications.last
        XCTAssertEqual(offer?.request.actions.map(\.label), ["1 more hour", "OK"])
        XCTAssertTrue(offer?.request.body.contains("e-book") == true)
        XCTAssertTrue(offer?.request.body.contains("screentime bedtime") == true)
        driver.send(.notificationAction(app: "firefox", key: ActionKey.continue))
        XCTAssertEqual(driver.bypasses.map { "\($0.mode) \(Int($0.granted))" }, ["wind-down 3600"])
        driver.clearLog()
        driver.advance(by: 70 * 60)
        XCTAssertEqual(driver.minimizes.map { $0.at.timeIntervalSince(self.morning) }, [3600])
    }

    /// A continue in Wind Down (and Sleep) lets the evening's leisure run, not one app: switching
    /// to another held-back app within the hour brings no card; after it, one card for whichever is
    /// in front. Productivity's bypass stays with its app.
    func testAnEveningContinueCoversEveryHeldBackAppForItsLength() {
        let game = AppInfo(id: "supertux2", name: "SuperTux 2", categories: ["Game", "ArcadeGame"])
        for mode in [Mode.windDown, .sleep] {
            var driver = driver()
            driver.send(.mode(decision(mode)))
            driver.send(focus(mpv))
            driver.send(.continueRequested("mpv"))
            driver.advance(by: 20 * 60)
            driver.send(focus(game))
            driver.advance(by: 20 * 60)
            driver.send(focus(firefox, "News"))
            driver.advance(by: 10 * 60)
            XCTAssertEqual(driver.minimizes.map(\.app), ["mpv"], "\(mode): only the first, before the continue")
            XCTAssertEqual(driver.engine.used("supertux2", at: driver.now), 20 * 60, "\(mode)")
            driver.send(focus(game))
            driver.advance(by: 20 * 60)
            XCTAssertEqual(driver.minimizes.map { "\($0.app) \(Int($0.at.timeIntervalSince(self.morning) / 60))" },
                           ["mpv 0", "supertux2 60"], "\(mode)")
            XCTAssertEqual(driver.cards.map(\.request.occasion), [.notAllowed, .notAllowed], "\(mode)")
        }

        var driver = driver()
        driver.send(.mode(decision(.productivity)))
        driver.send(focus(mpv))
        driver.send(.continueRequested("mpv"))
        driver.send(focus(game))
        XCTAssertEqual(driver.minimizes.map(\.app), ["mpv", "supertux2"], "Productivity's 3 minutes are for the app asked for")
    }

    /// An app running on the mode's continue is not counted down or disabled by its limit as well:
    /// the continue's end is the next word about it. Once the mode ends, the limit holds again.
    func testALimitWaitsWhileTheModesContinueRuns() {
        var settings = Settings()
        settings.limits["mpv"] = 40 * 60
        var driver = driver(settings)
        driver.send(.mode(decision(.windDown)))
        driver.send(focus(mpv))
        driver.send(.continueRequested("mpv"))
        XCTAssertEqual(driver.engine.nextDeadline(), morning.addingTimeInterval(3600), "the continue's end, not the limit's marks")
        driver.advance(by: 3600 - 1)
        XCTAssertEqual(driver.notifications.count, 1, "the mode's card, and no countdown: \(driver.notifications.map(\.request.summary))")
        XCTAssertEqual(driver.engine.used("mpv", at: driver.now), 3600 - 1)
        XCTAssertEqual(driver.engine.status(at: driver.now, zone: zone).apps.first?.state, "counting")
        driver.advance(by: 1)
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.notAllowed, .notAllowed])

        // Continued again: another hour of the mode's, still no limit card.
        driver.send(.continueRequested("mpv"))
        XCTAssertTrue(driver.engine.isCounting)
        driver.advance(by: 10 * 60)
        driver.send(.mode(ModeDecision.standard))
        XCTAssertEqual(driver.cards.map(\.request.occasion), [.notAllowed, .notAllowed, .limitReached])
        XCTAssertEqual(driver.bypasses.map(\.granted), [3600, 3600])
    }

    func testCheatDayHasNoLimitNoCountdownAndRecordsTheMode() {
        var settings = Settings()
        settings.limits["firefox"] = 30 * 60
        var driver = driver(settings)
        driver.send(.mode(ModeDecision(mode: .cheatDay, reason: .standard)))
        driver.send(focus(firefox))
        driver.advance(by: 3 * 3600)
        XCTAssertTrue(driver.minimizes.isEmpty)
        XCTAssertTrue(driver.notifications.isEmpty)
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 3 * 3600)
        XCTAssertEqual(driver.intervals.map(\.mode), ["cheat-day"])
        XCTAssertEqual(driver.engine.status(at: driver.now, zone: zone).apps.first?.state, "unlimited")

        // Back to Standard: the limit, long passed, applies at once.
        driver.send(.mode(ModeDecision.standard))
        XCTAssertEqual(driver.minimizes.map(\.app), ["firefox"])
    }

    func testWakeUpRemindsOncePerAppAboutContentWithoutMinimizing() {
        var driver = driver()
        driver.send(.mode(decision(.wakeUp)))
        driver.send(focus(mpv))
        driver.advance(by: 60)
        driver.send(focus(builder))
        driver.send(focus(mpv))
        let reminders = driver.notifications.filter { $0.app == "mpv" }
        XCTAssertEqual(reminders.count, 1)
        XCTAssertTrue(reminders.first?.request.body.contains("lowers stress") == true)
        XCTAssertEqual(reminders.first?.request.actions.map(\.key), [ActionKey.continue, ActionKey.ok])
        XCTAssertTrue(driver.minimizes.isEmpty)
        XCTAssertTrue(driver.engine.isCounting)
        XCTAssertTrue(driver.notifications.allSatisfy { $0.app == "mpv" }, "no reminder for a Development app")

        // The next Wake Up reminds again.
        driver.send(.mode(ModeDecision.standard))
        driver.send(.mode(decision(.wakeUp)))
        driver.send(focus(builder))
        driver.send(focus(mpv))
        XCTAssertEqual(driver.notifications.filter { $0.app == "mpv" }.count, 2)
    }

    func testEssentialAppIsNeverMinimizedInSleep() {
        var settings = Settings()
        settings.essential = ["keepassxc"]
        var driver = driver(settings)
        driver.send(.mode(decision(.sleep)))
        driver.send(focus(keepass))
        driver.advance(by: 5 * 3600)
        driver.send(focus(AppInfo(id: "screentime", name: "Screen Time")))
        driver.advance(by: 60)
        XCTAssertTrue(driver.minimizes.isEmpty)
        XCTAssertEqual(driver.engine.used("keepassxc", at: driver.now), 5 * 3600)
        driver.send(focus(firefox))
        XCTAssertEqual(driver.minimizes.map(\.app), ["firefox"])
        XCTAssertTrue(driver.notifications.last?.request.body.contains("Sleep music") == true)
    }

    func testTitleRuleMakesYouTubeAnAppLimitedApartFromFirefox() {
        var settings = Settings()
        settings.titleRules = [TitleRule(name: "youtube", matches: [TitleRule.Match(app: "firefox", title: "YouTube")])]
        settings.limits["youtube"] = 20 * 60
        var driver = driver(settings)
        driver.send(focus(firefox, "Docs — Mozilla Firefox"))
        driver.advance(by: 10 * 60)
        driver.send(.title("Cats - youtube — Mozilla Firefox"))
        XCTAssertEqual(driver.engine.focused?.app.name, "YouTube (Firefox)")
        XCTAssertEqual(driver.engine.focused?.app.icon, "firefox")
        driver.advance(by: 30 * 60)
        XCTAssertEqual(driver.minimizes.map { "\($0.app) \(Int($0.at.timeIntervalSince(self.morning)))" }, ["youtube 1800"])
        driver.send(.title("Docs — Mozilla Firefox"))
        driver.advance(by: 5 * 60)
        XCTAssertEqual(driver.engine.used("youtube", at: driver.now), 20 * 60)
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 15 * 60)
        XCTAssertEqual(driver.intervals.map(\.app), ["firefox", "youtube", "firefox"])
        // A site rule is content unless the user moves it.
        XCTAssertTrue(settings.groups(of: AppInfo(id: "youtube", name: "YouTube")).contains(.content))
    }

    /// The developer's Productivity morning: the editor, a terminal and the browser stay; a
    /// content site inside the browser is disabled, the browser is not.
    func testProductivityKeepsTerminalAndBrowserButNotAContentSiteInIt() {
        let xterm = AppInfo(id: "debian-xterm", name: "XTerm", categories: ["System", "TerminalEmulator"])
        var driver = driver()
        driver.send(.mode(decision(.productivity, .working(nextBreak: morning.addingTimeInterval(3 * 3600)))))
        for app in [builder, xterm, firefox] {
            driver.send(focus(app, "Issue 8 — work"))
            driver.advance(by: 50 * 60)
        }
        XCTAssertTrue(driver.minimizes.isEmpty, "\(driver.minimizes)")
        driver.send(.title("Cats - YouTube — Mozilla Firefox"))
        XCTAssertEqual(driver.minimizes.map(\.app), ["youtube"])
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 50 * 60)
    }

    /// `limit set content 2h`: the group's apps share two hours; an app's own limit still holds,
    /// and the tighter wins.
    func testAGroupLimitIsSharedByItsAppsAndTheTighterLimitWins() {
        let game = AppInfo(id: "supertux2", name: "SuperTux", categories: ["Game", "ArcadeGame"])
        var settings = Settings()
        settings.groupLimits[.content] = 2 * 3600
        settings.defaultLimit = 8 * 3600
        settings.limits["supertux2"] = 30 * 60
        var driver = driver(settings)
        driver.send(focus(mpv, "A film"))
        driver.advance(by: 80 * 60)
        driver.send(focus(firefox, "Cats - YouTube — Mozilla Firefox"))
        XCTAssertEqual(driver.engine.remaining("youtube", at: driver.now), 40 * 60, "the group's two hours, less the film")
        driver.advance(by: 15 * 60)
        driver.send(focus(game))
        XCTAssertEqual(driver.engine.remaining("supertux2", at: driver.now), 25 * 60, "the group has 25 min left, the game 30")
        driver.advance(by: 60 * 60)
        XCTAssertEqual(driver.minimizes.map { "\($0.app) \(Int($0.at.timeIntervalSince(self.morning)) / 60)" }, ["supertux2 120"])
        XCTAssertEqual(driver.engine.used(.content, at: driver.now), 2 * 3600)
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 0, "the site counts, not the browser")

        // After a restart the apps used earlier today keep their groups before they are focused again.
        let restarted = Engine(settings: settings, zone: zone, now: driver.now,
                               usageToday: ["mpv": 80 * 60, "youtube": 15 * 60, "supertux2": 25 * 60], knownApps: [mpv, game])
        XCTAssertEqual(restarted.used(.content, at: driver.now), 2 * 3600)
        XCTAssertEqual(restarted.remaining("mpv", at: driver.now), 0)
    }

    func testBreakStartsByItselfRestoresColourAndEndsOnTime() {
        var driver = driver()
        let breakStart = morning.addingTimeInterval(3600)
        driver.send(.mode(decision(.productivity, .working(nextBreak: breakStart))))
        driver.clearLog()
        // No new decision from the agent and no other deadline (nothing focused): the engine's own
        // deadline starts the break.
        XCTAssertEqual(driver.engine.nextDeadline(), breakStart)
        driver.advance(to: breakStart.addingTimeInterval(1))
        XCTAssertEqual(driver.log.first { $0.action == .setDisplayFilter(.none) }?.at, breakStart)
        XCTAssertEqual(driver.cards.map { "\($0.request.occasion) \($0.at.timeIntervalSince(breakStart))" }, ["breakStarted 0.0"])
        XCTAssertTrue(driver.modeNotices.isEmpty, "the card's fallback is the break's notice")
        let status = driver.engine.status(at: breakStart.addingTimeInterval(120), zone: zone)
        XCTAssertEqual(status.breakSecondsLeft, 180)
        XCTAssertTrue(StatusFormat.text(status).contains("Break: 3 min left"))

        // The agent's decision, when it comes, says the same: no second notice.
        driver.clearLog()
        driver.send(.mode(decision(.productivity, .onBreak(since: breakStart, until: breakStart.addingTimeInterval(300)))))
        XCTAssertTrue(driver.modeNotices.isEmpty && driver.cards.isEmpty)
        driver.advance(by: 400)
        XCTAssertEqual(driver.modeNotices.map(\.request.summary), ["Your break is over"])
        XCTAssertEqual(driver.log.last { if case .setDisplayFilter = $0.action { true } else { false } }?.at,
                       breakStart.addingTimeInterval(300))
        XCTAssertEqual(driver.engine.profile.displayFilter, .grayscale)
        // After the break the status counts to the next one (the hour starts again when a break ends).
        let after = driver.engine.status(at: driver.now, zone: zone)
        XCTAssertEqual(after.nextBreakSeconds, breakStart.addingTimeInterval(300 + 3600).timeIntervalSince(driver.now))
    }

    func testAContinueKeepsItsLengthAndIsRecordedWithItsModeAndRule() {
        var settings = Settings()
        settings.limits["firefox"] = 10 * 60
        var driver = driver(settings)
        driver.send(.mode(decision(.wakeUp)))
        driver.send(focus(firefox))
        driver.advance(by: 10 * 60)
        XCTAssertTrue(driver.engine.isOverLimit("firefox", at: driver.now))
        driver.clearLog()
        driver.send(.continueRequested("firefox"))
        XCTAssertTrue(driver.log.contains {
            if case .recordBypass("firefox", "wake-up", .limit, 3600, _) = $0.action { true } else { false }
        }, "recorded in the mode it was granted in, as a continue past the limit")
        // A later change of `continue-for` neither cuts nor stretches the hour already granted.
        settings.continueGrant = 20
        driver.send(.settings(settings))
        XCTAssertEqual(driver.engine.effectiveLimit(of: "firefox"), 10 * 60 + 3600)
        driver.advance(by: 30 * 60)
        XCTAssertTrue(driver.minimizes.isEmpty)

        // A restart rebuilds the grants from what each continue granted.
        let restarted = Engine(settings: settings, zone: zone, now: driver.now, usageToday: ["firefox": 40 * 60],
                               grantsToday: ["firefox": [3600]])
        XCTAssertEqual(restarted.remaining("firefox", at: driver.now), 30 * 60)
    }
}
