import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The wall clock jumps (an unnoticed suspend, the clock set by hand): nothing of the jump is
/// counted, and a step back never shrinks what was counted.
final class ClockJumpTests: XCTestCase {
    /// 2026-11-29 08:00 local (UTC+1).
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600)
    let zone = FixedOffsetZone(seconds: 3600)
    let firefox = AppInfo(id: "firefox", name: "Firefox", icon: "firefox", categories: ["WebBrowser"])

    func driver() -> EngineDriver {
        var driver = EngineDriver(engine: Engine(settings: Settings(), zone: zone, now: morning), now: morning)
        driver.send(.focus(FocusedApp(app: firefox, window: WindowID(1), title: "")))
        return driver
    }

    func testAJumpForwardIsNotCountedAndCountingGoesOnAfterIt() {
        var driver = driver()
        driver.advance(by: 600)
        let lastSeen = driver.now
        // The clock moved on two hours without the engine hearing of it (no tick in between).
        var engine = driver.engine
        let now = lastSeen.addingTimeInterval(2 * 3600)
        let actions = engine.handle(.clockJumped(lastSeen: lastSeen), at: now)
        XCTAssertEqual(engine.used("firefox", at: now), 600)
        XCTAssertTrue(actions.contains(.endInterval(at: lastSeen)))
        XCTAssertTrue(actions.contains(.beginInterval(app: "firefox", title: "", mode: "standard", at: now)))
        XCTAssertEqual(engine.used("firefox", at: now.addingTimeInterval(60)), 660)
    }

    func testAJumpPastMidnightStartsTheNewDayWithoutCountingTheGap() {
        var driver = driver()
        driver.advance(by: 600)
        let lastSeen = driver.now
        let nextMorning = morning.addingTimeInterval(86_400)
        var engine = driver.engine
        let actions = engine.handle(.clockJumped(lastSeen: lastSeen), at: nextMorning)
        XCTAssertEqual(engine.used("firefox", at: nextMorning), 0)
        XCTAssertTrue(actions.contains(.endInterval(at: lastSeen)))
        XCTAssertGreaterThan(engine.dayStart, lastSeen)
        XCTAssertLessThanOrEqual(engine.dayStart, nextMorning)
        XCTAssertGreaterThan(engine.dayEnd, nextMorning)
    }

    func testAStepBackKeepsWhatWasCountedAndCountsFromTheNewClock() {
        var driver = driver()
        driver.advance(by: 1800)
        let lastSeen = driver.now
        let earlier = lastSeen.addingTimeInterval(-3600)
        var engine = driver.engine
        let actions = engine.handle(.clockJumped(lastSeen: lastSeen), at: earlier)
        XCTAssertTrue(actions.contains(.endInterval(at: lastSeen)))
        XCTAssertTrue(actions.contains(.beginInterval(app: "firefox", title: "", mode: "standard", at: earlier)))
        XCTAssertEqual(engine.used("firefox", at: earlier), 1800)
        XCTAssertEqual(engine.used("firefox", at: earlier.addingTimeInterval(60)), 1860)
        XCTAssertGreaterThan(engine.nextDeadline() ?? .distantPast, earlier)
    }

    func testAStepBackIntoYesterdayTakesYesterdaysBounds() {
        var driver = driver()
        driver.advance(by: 60)
        var engine = driver.engine
        let yesterday = morning.addingTimeInterval(-86_400)
        _ = engine.handle(.clockJumped(lastSeen: driver.now), at: yesterday)
        XCTAssertLessThanOrEqual(engine.dayStart, yesterday)
        XCTAssertGreaterThan(engine.dayEnd, yesterday)
        XCTAssertEqual(engine.used("firefox", at: yesterday), 60)
    }
}
