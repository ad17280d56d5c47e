import FoundationEssentials
import ScreenTimeCore
import XCTest

final class IdleCheckTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_910_400)

    func testActiveUserIsReadAgainExactlyWhenTheThresholdWouldBeCrossed() {
        var check = IdleCheck()
        let outcome = check.evaluate(idleSeconds: 40, screenSaverActive: false, threshold: 180, now: now)
        XCTAssertNil(outcome.transition)
        XCTAssertEqual(outcome.nextCheck, now.addingTimeInterval(140))
        XCTAssertTrue(check.active)
    }

    func testGoingIdleIsDatedAtTheLastInputPlusTheThreshold() {
        var check = IdleCheck()
        let outcome = check.evaluate(idleSeconds: 200, screenSaverActive: false, threshold: 180, now: now)
        XCTAssertEqual(outcome.transition, .becameIdle(at: now.addingTimeInterval(-20)))
        XCTAssertEqual(outcome.nextCheck, now.addingTimeInterval(check.returnPoll))
        XCTAssertFalse(check.active)
    }

    func testTheThresholdItselfCountsAsIdle() {
        var check = IdleCheck()
        let outcome = check.evaluate(idleSeconds: 0.3, screenSaverActive: false, threshold: 0.3, now: now)
        XCTAssertEqual(outcome.transition, .becameIdle(at: now))
    }

    func testScreenSaverMakesIdleAtOnceButNeverInTheFuture() {
        var check = IdleCheck()
        let outcome = check.evaluate(idleSeconds: 10, screenSaverActive: true, threshold: 180, now: now)
        XCTAssertEqual(outcome.transition, .becameIdle(at: now), "not at last input + threshold, which is still ahead")
        var late = IdleCheck()
        let past = late.evaluate(idleSeconds: 600, screenSaverActive: true, threshold: 180, now: now)
        XCTAssertEqual(past.transition, .becameIdle(at: now.addingTimeInterval(-420)))
    }

    func testReturnIsDatedAtTheLastInput() {
        var check = IdleCheck()
        _ = check.evaluate(idleSeconds: 500, screenSaverActive: false, threshold: 180, now: now)
        let later = now.addingTimeInterval(30)
        let outcome = check.evaluate(idleSeconds: 2.5, screenSaverActive: false, threshold: 180, now: later)
        XCTAssertEqual(outcome.transition, .becameActive(at: later.addingTimeInterval(-2.5)))
        XCTAssertEqual(outcome.nextCheck, later.addingTimeInterval(177.5))
        XCTAssertTrue(outcome.transition?.isActive ?? false)
    }

    func testNoTransitionWhileStateHolds() {
        var check = IdleCheck()
        _ = check.evaluate(idleSeconds: 500, screenSaverActive: false, threshold: 180, now: now)
        XCTAssertNil(check.evaluate(idleSeconds: 505, screenSaverActive: false, threshold: 180, now: now.addingTimeInterval(5)).transition)
        XCTAssertNil(check.evaluate(idleSeconds: 1, screenSaverActive: true, threshold: 180, now: now.addingTimeInterval(9)).transition,
                     "input under a screen saver is not a return")
    }

    func testTransitionDate() {
        XCTAssertEqual(IdleTransition.becameIdle(at: now).date, now)
        XCTAssertFalse(IdleTransition.becameIdle(at: now).isActive)
    }
}
