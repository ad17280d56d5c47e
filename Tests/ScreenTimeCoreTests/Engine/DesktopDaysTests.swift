import ScreenTimeCore
import TestSupport
import XCTest

/// The notification budget with default settings (screentime-notify-bench prints the figures).
final class DesktopDaysTests: XCTestCase {
    func testEachUserGetsAtMostEightBubblesWithContextAndProductivityKeepsTheWorkApps() {
        for day in DesktopDays.all {
            let outcome = DesktopDays.run(day)
            XCTAssertLessThanOrEqual(outcome.ledger.newBubbles, 8, day.name)
            XCTAssertEqual(outcome.ledger.withoutContext, [], day.name)
            XCTAssertEqual(outcome.workDisables, 0, day.name)
        }
    }

    /// The countdown counts down in place from 1 minute: the student's hour of a game is four
    /// bubbles (30, 10, 5 min, 1 min), the 10 s, 5 s and the limit update the last one.
    func testTheFinalCountdownUpdatesOneBubbleInPlace() {
        let outcome = DesktopDays.run(DesktopDays.student)
        XCTAssertEqual(outcome.ledger.newBubbles, 4)
        XCTAssertEqual(outcome.ledger.updatesInPlace, 3)
        XCTAssertEqual(outcome.ledger.disabled, [DesktopDays.game.id])
    }

    /// The content site inside the browser is what Productivity disables, never the browser.
    func testADeveloperWatchingYouTubeInProductivityLosesTheSiteNotTheBrowser() {
        var day = DesktopDays.productivityMorning
        day.segments.insert(DesktopDays.Segment(app: DesktopDays.browser, title: "Cats - YouTube — Mozilla Firefox", minutes: 10), at: 3)
        let outcome = DesktopDays.run(day)
        XCTAssertEqual(Set(outcome.ledger.disabled), ["youtube"])
        XCTAssertEqual(outcome.workDisables, 0)
    }
}
