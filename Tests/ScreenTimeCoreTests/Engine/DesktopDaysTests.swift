import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The attention budget with default settings, for every persona day and evening of
/// screentime-notify-bench (which prints the figures): held here, so CI holds it.
final class DesktopDaysTests: XCTestCase {
    func testEveryDayAndEveningKeepsTheInterruptionBudgetWithContextAndProductivityKeepsTheWorkApps() {
        XCTAssertTrue(DesktopDays.all.contains { $0.start >= DesktopDays.monday(at: 18) }, "the evenings run too")
        for day in DesktopDays.all {
            let outcome = DesktopDays.run(day)
            XCTAssertEqual(InterruptionBudget.misses(outcome), [], day.name)
            XCTAssertLessThanOrEqual(outcome.ledger.interruptions.count, InterruptionBudget.perDay, day.name)
            XCTAssertEqual(outcome.ledger.withoutContext, [], day.name)
            XCTAssertEqual(outcome.workDisables, 0, day.name)
        }
    }

    /// The budget notices what it is for: the whole countdown ladder, and a card per app in Wind Down.
    func testTheBudgetNamesALadderAndACardPerApp() {
        var outcome = DesktopDays.run(DesktopDays.student)
        let game = DesktopDays.game
        let start = DesktopDays.start
        var ladder = NotificationLedger()
        for (minutes, left) in [(0, 30), (20, 10), (25, 5)] {
            ladder.record([.notify(app: game.id, Wording.countdown(game, left: Double(left) * 60, used: 0, limit: 3600))],
                          at: start.addingTimeInterval(Double(minutes) * 60))
        }
        outcome.ledger = ladder
        XCTAssertEqual(InterruptionBudget.misses(outcome), [
            "09:20 \"SuperTux 2: 10 min left today\" only 20 min after 09:00 \"SuperTux 2: 30 min left today\"",
            "09:25 \"SuperTux 2: 5 min left today\" only 5 min after 09:20 \"SuperTux 2: 10 min left today\"",
        ])

        var cards = NotificationLedger()
        let continuedAt = start
        outcome.continues = [DesktopDays.Continue(at: continuedAt, app: game.id, mode: Mode.windDown.rawValue, rule: .mode, granted: 900)]
        let card = CardRequest(occasion: .notAllowed, mode: .windDown, app: DesktopDays.store, grant: 900, at: start.addingTimeInterval(300))
        cards.record([.showCard(card, fallback: Wording.notAllowed(DesktopDays.store, in: .windDown, response: .offerCalmAlternatives,
                                                                   grant: 900, context: ""))], at: card.at)
        outcome.ledger = cards
        XCTAssertEqual(InterruptionBudget.misses(outcome), ["09:05 \"Steam is resting for the night\" inside the 15 min continued at 09:00"])
    }

    /// The student's hour of a game: one glance 30 minutes before the limit, then the card.
    func testALimitIsOneReminderThenTheCard() {
        let outcome = DesktopDays.run(DesktopDays.student)
        XCTAssertEqual(outcome.ledger.interruptions.map { "\(InterruptionBudget.clock($0.at)) \($0.summary)" },
                       ["16:30 SuperTux 2: 30 min left today", "17:00 Time for a break from SuperTux 2?"])
        XCTAssertEqual(outcome.ledger.disabled, [DesktopDays.game.id])
    }

    /// The evening: two hours of Wind Down with a game, video and the store cost two
    /// cards, each continue letting all of them run for the hour.
    func testTheGamersWindDownIsACardAnHourForAllItsLeisure() {
        let outcome = DesktopDays.run(DesktopDays.gamerEvening)
        let windDown = outcome.ledger.interruptions.filter { $0.card?.mode == .windDown }
        XCTAssertEqual(windDown.map { "\(InterruptionBudget.clock($0.at)) \($0.summary)" },
                       ["22:00 YouTube (Firefox ESR) is resting for the night", "23:10 Steam is resting for the night"])
        XCTAssertEqual(outcome.continues.filter { $0.mode == Mode.windDown.rawValue }.map(\.granted), [3600, 3600])
        XCTAssertFalse(outcome.ledger.interruptions.contains { $0.isCountdown && $0.at >= DesktopDays.monday(at: 22) },
                       "no limit counts down on top of Wind Down")
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
