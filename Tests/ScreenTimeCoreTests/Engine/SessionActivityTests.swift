import ScreenTimeCore
import XCTest

final class SessionActivityTests: XCTestCase {
    func testInputCountsUnlessLockedOrAsleep() {
        var activity = SessionActivity()
        XCTAssertTrue(activity.isActive)
        activity.locked = true
        XCTAssertFalse(activity.isActive)
        activity.locked = false
        activity.asleep = true
        XCTAssertFalse(activity.isActive)
        activity.asleep = false
        activity.screenSaverActive = true
        XCTAssertFalse(activity.isActive)
        activity.screenSaverActive = false
        XCTAssertTrue(activity.isActive)
    }

    func testMediaPlayingKeepsAnIdleUserActiveButNotALockedOrSleepingOne() {
        var activity = SessionActivity()
        activity.inputActive = false
        XCTAssertFalse(activity.isActive)
        activity.mediaPlaying = true
        XCTAssertTrue(activity.isActive, "a video watched without touching the input")
        activity.locked = true
        XCTAssertFalse(activity.isActive, "media behind a lock screen is not watched")
        activity.locked = false
        activity.screenSaverActive = true
        XCTAssertFalse(activity.isActive)
        activity.screenSaverActive = false
        activity.asleep = true
        XCTAssertFalse(activity.isActive)
    }
}
