import ScreenTimeCore
import XCTest

final class CardWordingTests: XCTestCase {
    func testDurationsInASentence() {
        XCTAssertEqual(CardWording.spelled(3600), "1 hour")
        XCTAssertEqual(CardWording.spelled(3900), "1 hour 5 minutes")
        XCTAssertEqual(CardWording.spelled(7260), "2 hours 1 minute")
        XCTAssertEqual(CardWording.spelled(25 * 60 + 59), "25 minutes")
        XCTAssertEqual(CardWording.spelled(45), "45 seconds")
        XCTAssertEqual(CardWording.spelled(1), "1 second")
        XCTAssertEqual(CardWording.spelled(-5), "0 seconds")
        XCTAssertEqual(CardWording.continueFor(900), "Continue for 15 minutes")
    }

    func testTheNextBreakRoundsUpSoItIsNeverLate() {
        XCTAssertEqual(CardWording.breakDue(in: 24 * 60 + 1, at: "11:00"), "In 25 minutes, at 11:00")
        XCTAssertEqual(CardWording.breakDue(in: 0, at: "11:00"), "Now")
    }

    /// The study: every reminder states that the choice is the user's, and the way through is named.
    func testEveryAppCardStatesTheUsersChoice() {
        let app = AppInfo(id: AppID("org.example.Films"), name: "Films")
        for mode in Mode.allCases {
            let response = ModeProfile.defaults(for: mode).onDisallowedApp
            for grant in [nil, 900.0] {
                let message = CardWording.modeMessage(mode, response: response, app: app, grant: grant)
                XCTAssertTrue(message.contains("It is your choice"), message)
                XCTAssertTrue(message.contains("Films"), message)
            }
        }
        XCTAssertEqual(CardWording.modeMessage(.productivity, response: .disableShowingBreakAndAgenda, app: app, grant: 180),
                       "Productivity mode keeps your work and messages in front. Here is what is next. "
                       + "It is your choice: leave Films for now, or take 3 more minutes.")
        XCTAssertEqual(CardWording.limitMessage(app, used: 3900, grant: 3600),
                       "You have used Films for 1 hour 5 minutes today, and it has been minimized. "
                       + "It is your choice: leave it here for today, or continue for 1 hour.")
        XCTAssertEqual(CardWording.limitMessage(app, used: nil, grant: nil),
                       "Films has reached its daily limit and has been minimized. It is your choice what to do next; Films is back tomorrow.")
    }

    func testABreakSuggestsTheUsersOwnActivity() {
        XCTAssertEqual(CardWording.breakMessage(activity: "Fetch a glass of water", endsAt: "10:40"),
                       "How about this: Fetch a glass of water. The break ends at 10:40; colour and notifications are back until then. "
                       + "It is your choice how to spend it.")
        XCTAssertTrue(CardWording.breakMessage(activity: "Stretch.", endsAt: nil).hasPrefix("How about this: Stretch. It is"))
        XCTAssertEqual(CardWording.breakMessage(activity: nil, endsAt: nil),
                       "A few minutes away from the desk refresh you. It is your choice how to spend it.")
    }
}
