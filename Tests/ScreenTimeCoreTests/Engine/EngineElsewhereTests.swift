import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The other joined devices' use counts toward this one's limits: the engine is told it, never reads it.
final class EngineElsewhereTests: XCTestCase {
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600)
    let zone = FixedOffsetZone(seconds: 3600)
    let firefox = AppInfo(id: "firefox", name: "Firefox", icon: "firefox", categories: ["WebBrowser"])
    let mpv = AppInfo(id: "mpv", name: "mpv", icon: "mpv", categories: ["AudioVideo"])

    func focus(_ app: AppInfo) -> EngineEvent { .focus(FocusedApp(app: app, window: WindowID(1), title: "")) }

    func testAnotherDevicesUseBringsTheLimitForward() {
        var settings = Settings()
        settings.limits["firefox"] = 60 * 60
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.useElsewhere(UsageElsewhere(apps: ["firefox": 50 * 60]))
        driver.send(focus(firefox))
        XCTAssertEqual(driver.engine.remaining("firefox", at: driver.now), 10 * 60)
        driver.advance(by: 15 * 60)
        XCTAssertEqual(driver.minimizes.map { $0.at.timeIntervalSince(morning) }, [10 * 60])
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 60 * 60)
    }

    func testUseArrivingWhileCountingDisablesAtOnce() {
        var settings = Settings()
        settings.limits["firefox"] = 60 * 60
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.send(focus(firefox))
        driver.advance(by: 20 * 60)
        XCTAssertTrue(driver.minimizes.isEmpty)
        driver.useElsewhere(UsageElsewhere(apps: ["firefox": 45 * 60]))
        XCTAssertEqual(driver.minimizes.map { $0.at.timeIntervalSince(morning) }, [20 * 60])
        XCTAssertTrue(driver.log.contains { $0.action == .recordLimitHit(app: "firefox", used: 65 * 60, at: driver.now) })
        // The same figures again change nothing.
        driver.clearLog()
        driver.useElsewhere(UsageElsewhere(apps: ["firefox": 45 * 60]))
        XCTAssertTrue(driver.log.isEmpty)
    }

    /// A group's use elsewhere is the other device's own placing of its apps (it may know an app's
    /// categories this device does not).
    func testAGroupsUseElsewhereCounts() {
        var settings = Settings()
        settings.groupLimits[.content] = 30 * 60
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.useElsewhere(UsageElsewhere(apps: ["org.example.Video": 25 * 60], groups: ["content": 25 * 60]))
        driver.send(focus(mpv))
        driver.advance(by: 10 * 60)
        XCTAssertEqual(driver.minimizes.map { $0.at.timeIntervalSince(morning) }, [5 * 60])
    }

    /// The next day starts afresh here and elsewhere, until the folder tells that day's use.
    func testANewDayForgetsYesterdaysUseElsewhere() {
        var settings = Settings()
        settings.limits["firefox"] = 60 * 60
        var driver = EngineDriver(engine: Engine(settings: settings, zone: zone, now: morning), now: morning)
        driver.useElsewhere(UsageElsewhere(apps: ["firefox": 50 * 60]))
        driver.advance(by: 24 * 3600)
        XCTAssertEqual(driver.engine.elsewhere, UsageElsewhere())
        XCTAssertEqual(driver.engine.used("firefox", at: driver.now), 0)
    }
}
