import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

final class EngineTests: XCTestCase {
    /// 2026-11-29 08:00 local (UTC+1).
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600)
    let zone = FixedOffsetZone(seconds: 3600)
    let firefox = AppInfo(id: "firefox", name: "Firefox", icon: "firefox", categories: ["WebBrowser"])
    let terminal = AppInfo(id: "xterm", name: "XTerm", icon: "xterm")
    let keepass = AppInfo(id: "keepassxc", name: "KeePassXC")

    func settings() -> Settings {
        var settings = Settings()
        settings.limits["firefox"] = 45 * 60
        settings.important = ["keepassxc"]
        return settings
    }

    func focus(_ app: AppInfo, _ title: String = "") -> EngineEvent {
        .focus(FocusedApp(app: app, window: WindowID(UInt64(app.id.rawValue.count)), title: title))
    }

    /// One reminder on the way to a limit: a glance 30 minutes before it, then the card (the study:
    /// reminders every few minutes make people ignore them).
    func testCountdownIsOneReminderThenDisableThenContinue() {
        var driver = EngineDriver(engine: Engine(settings: settings(), zone: zone, now: morning), now: morning)
        driver.send(focus(firefox, "News"))
        driver.advance(by: 3 * 3600)

        let marks = driver.notifications.map { ($0.at.timeIntervalSince(morning), $0.request.summary) }
        XCTAssertEqual(marks.map(\.0), [900, 2700]) // 15 min, 45 min
        XCTAssertEqual(marks.map(\.1), ["Firefox: 30 min left today", "Time for a break from Firefox?"])
        XCTAssertEqual(driver.notifications.map(\.request.urgency), [.low, .normal])
        XCTAssertEqual(driver.notifications.map(\.request.expireTimeout), [8000, 0])
        XCTAssertEqual(driver.minimizes.map { $0.at.timeIntervalSince(morning) }, [45 * 60])
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 45 * 60)
        XCTAssertTrue(driver.engine.isOverLimit("firefox", at: driver.now))

        // Bringing it back without continuing minimizes it again, with the same offer.
        driver.clearLog()
        driver.send(focus(terminal))
        driver.send(focus(firefox, "News"))
        XCTAssertEqual(driver.minimizes.map(\.app), ["firefox"])
        XCTAssertEqual(driver.notifications.last?.request.actions.map(\.label), ["Continue for 1 h", "OK"])

        // Continue grants one more hour, recorded, with one reminder (not the ladder) before it runs out.
        driver.clearLog()
        let continuedAt = driver.now
        driver.send(.notificationAction(app: "firefox", key: ActionKey.continue))
        XCTAssertTrue(driver.log.contains { $0.action == .recordBypass(app: "firefox", mode: "standard", rule: .limit, granted: 3600, at: continuedAt) })
        XCTAssertEqual(driver.engine.remaining("firefox", at: driver.now), 3600)
        driver.advance(by: 2 * 3600)
        XCTAssertEqual(driver.notifications.map(\.at), [continuedAt.addingTimeInterval(30 * 60), continuedAt.addingTimeInterval(3600)])
        XCTAssertEqual(driver.notifications.map(\.request.summary), ["Firefox: 30 min left today", "Time for a break from Firefox?"])
        XCTAssertEqual(driver.minimizes.map(\.at), [continuedAt.addingTimeInterval(3600)])
    }

    /// A limit lowered below what was used today: Continue still gives its whole grant from now
    /// (found by the in-process week, where the app was disabled again the moment it continued).
    func testContinuePastALimitLoweredBelowTodaysUseGivesTheWholeGrant() {
        var settings = settings()
        settings.limits["firefox"] = 10 * 60
        settings.continueGrant = 5 * 60
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning,
                                                 usageToday: ["firefox": 2 * 3600], grantsToday: [:]), now: morning)
        driver.send(focus(firefox))
        XCTAssertEqual(driver.minimizes.count, 1, "110 minutes over: disabled on focus")
        driver.clearLog()
        let continuedAt = driver.now
        driver.send(.continueRequested("firefox"))
        XCTAssertEqual(driver.minimizes.count, 0, "let through")
        XCTAssertEqual(driver.engine.remaining("firefox", at: driver.now), 5 * 60)
        XCTAssertTrue(driver.log.contains { $0.action == .recordBypass(app: "firefox", mode: "standard", rule: .limit, granted: 5 * 60, at: continuedAt) })
        driver.advance(by: 10 * 60)
        XCTAssertEqual(driver.minimizes.map(\.at), [continuedAt.addingTimeInterval(5 * 60)])
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 2 * 3600 + 5 * 60)
    }

    /// A reminder from the last minute stays on screen, so the later marks count down in it (one
    /// notification, updated in place); marks after a glance that went by are not shown, nor
    /// waited for.
    func testOnlyAReminderThatStaysIsCountedDownInPlace() {
        var settings = settings()
        settings.countdownMarks = [60, 10, 5]
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.send(focus(firefox))
        driver.advance(by: 3600)
        XCTAssertEqual(driver.notifications.map { 2700 - $0.at.timeIntervalSince(morning) }, [60, 10, 5, 0])
        XCTAssertEqual(driver.notifications.map(\.request.expireTimeout), [0, 0, 0, 0])

        settings.countdownMarks = [1800, 600, 60]
        driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.send(focus(firefox))
        driver.advance(by: 16 * 60)
        XCTAssertEqual(driver.engine.nextDeadline(), morning.addingTimeInterval(2700), "the limit, not the 10 min mark")
        driver.advance(by: 3600)
        XCTAssertEqual(driver.notifications.map { 2700 - $0.at.timeIntervalSince(morning) }, [1800, 0])
    }

    func testCountsOnlyForegroundActiveTimeAndNeverNoWindow() {
        var driver = EngineDriver(engine: Engine(settings: settings(), zone: zone, now: morning), now: morning)
        driver.send(focus(terminal))
        driver.advance(by: 600)
        driver.send(.focus(nil))
        driver.advance(by: 300)
        driver.send(focus(terminal))
        driver.advance(by: 120)
        driver.send(.activity(active: false))
        driver.advance(by: 3600)
        driver.send(.activity(active: true))
        driver.advance(by: 60)
        driver.send(focus(keepass))
        driver.advance(by: 4 * 3600)
        XCTAssertEqual(driver.engine.used("xterm", at: driver.now), 600 + 120 + 60)
        XCTAssertEqual(driver.engine.used("keepassxc", at: driver.now), 4 * 3600)
        XCTAssertTrue(driver.notifications.isEmpty, "an important app has no limit")
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 0)
    }

    /// A title change alone starts no interval, and titles are stored only where a title rule
    /// made the app (`[privacy] titles = rules`).
    func testTitleChangeStartsNoIntervalAndOnlyARulesTitleIsStored() {
        var driver = EngineDriver(engine: Engine(settings: settings(), zone: zone, now: morning), now: morning)
        driver.send(focus(terminal, "vim"))
        driver.advance(by: 10)
        driver.send(.title("make"))
        driver.advance(by: 5)
        driver.send(.title("Cats - YouTube"))
        driver.advance(by: 5)
        driver.send(.focus(FocusedApp(app: firefox, window: WindowID(99), title: "Cats - YouTube — Mozilla Firefox")))
        driver.advance(by: 5)
        driver.send(.focus(nil))
        let intervals = driver.log.compactMap { entry -> String? in
            switch entry.action {
            case .beginInterval(let app, let title, _, let at): return "begin \(app) \(title) \(Int(at.timeIntervalSince(morning)))"
            case .endInterval(let at): return "end \(Int(at.timeIntervalSince(morning)))"
            default: return nil
            }
        }
        XCTAssertEqual(intervals, ["begin xterm  0", "end 20", "begin youtube Cats - YouTube — Mozilla Firefox 20", "end 25"])
        XCTAssertEqual(driver.engine.used("xterm", at: driver.now), 20)

        var all = settings()
        all.titlePrivacy = .all
        XCTAssertEqual(all.storedTitle(of: "xterm", title: "make"), "make")
        all.titlePrivacy = .none
        XCTAssertEqual(all.storedTitle(of: "youtube", title: "Cats - YouTube"), "")
    }

    func testDayRolloverResetsUsageGrantsAndSplitsTheInterval() {
        let lateEvening = morning.addingTimeInterval(15 * 3600) // 23:00 local
        var generous = settings()
        generous.continueGrant = 6 * 3600
        var driver = EngineDriver(engine: Engine(settings: generous, zone: zone, now: lateEvening,
                                                 usageToday: ["firefox": 45 * 60], grantsToday: [:]), now: lateEvening)
        driver.send(focus(firefox))
        XCTAssertEqual(driver.minimizes.count, 1, "over the limit: disabled on focus")
        driver.send(.continueRequested("firefox"))
        driver.advance(by: 5 * 3600 + 30 * 60) // 04:30 the next day
        let boundary = morning.addingTimeInterval(20 * 3600) // 04:00 local
        XCTAssertTrue(driver.log.contains { $0.action == .endInterval(at: boundary) })
        XCTAssertTrue(driver.log.contains { $0.action == .beginInterval(app: "firefox", title: "", mode: "standard", at: boundary) })
        XCTAssertEqual(driver.engine.dayStart, boundary)
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 30 * 60)
        XCTAssertEqual(driver.engine.grants, [:])
        XCTAssertEqual(driver.engine.effectiveLimit(of: "firefox"), 45 * 60)
    }

    /// The engine keeps each focused app's limits: what it kept follows the app's groups and the settings.
    func testAnAppsLimitFollowsItsGroupsAndTheSettings() {
        var driver = EngineDriver(engine: Engine(settings: Settings(), zone: zone, now: morning), now: morning)
        let unknown = AppInfo(id: "builder", name: "builder")
        driver.send(focus(unknown))
        XCTAssertEqual(driver.engine.effectiveLimit(of: "builder"), 3600, "no known group: the default limit")
        // Its desktop entry arrived: a productivity app, unlimited under `scope = leisure`.
        driver.send(focus(AppInfo(id: "builder", name: "Builder", categories: ["Development"])))
        XCTAssertNil(driver.engine.effectiveLimit(of: "builder"))
        var limited = Settings()
        limited.groupLimits[.productivity] = 2 * 3600
        driver.send(.settings(limited))
        XCTAssertEqual(driver.engine.effectiveLimit(of: "builder"), 2 * 3600)
        limited.essential = ["builder"]
        driver.send(.settings(limited))
        XCTAssertNil(driver.engine.effectiveLimit(of: "builder"))
    }

    func testLoweringALimitBelowUsageDisablesAtOnce() {
        var driver = EngineDriver(engine: Engine(settings: settings(), zone: zone, now: morning), now: morning)
        driver.send(focus(terminal))
        driver.advance(by: 20 * 60)
        var lower = settings()
        lower.limits["xterm"] = 10 * 60
        driver.send(.settings(lower))
        XCTAssertEqual(driver.minimizes.map(\.app), ["xterm"])
    }

    func testSimulatedWeekRunsFast() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var driver = EngineDriver(engine: Engine(settings: settings(), zone: zone, now: morning), now: morning)
            for _ in 0..<7 {
                for _ in 0..<96 {
                    driver.send(focus(firefox))
                    driver.advance(by: 300)
                    driver.send(focus(terminal))
                    driver.advance(by: 300)
                    driver.send(.notificationAction(app: "firefox", key: ActionKey.continue))
                }
                driver.advance(by: 8 * 3600)
            }
            XCTAssertGreaterThan(driver.log.count, 1000)
        }
        XCTAssertLessThan(elapsed, .seconds(1))
    }
}
