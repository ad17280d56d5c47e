@testable import ScreenTimeCore
import XCTest

final class CardTextTests: XCTestCase {
    func testTitleWeekBarsMessageSectionsAndButtons() {
        let week = [("Tue", 0.0), ("Wed", 1800), ("Thu", 3600), ("Fri", 5400), ("Sat", 7200), ("Sun", 20), ("Mon", 3900)]
        let document = CardDocument(
            icon: "firefox", title: "Time for a break from Firefox?",
            statistics: CardStatistics(today: 3900, week: week.map { CardDayBar(label: $0.0, seconds: $0.1) }),
            message: "You have used Firefox for 1 hour 5 minutes today, and it has been minimized. It is your choice: leave it here for today, or continue for 1 hour.",
            sections: [CardSection(title: "To do", items: ["Send the invoice", "A very long item that goes on and on past the width of the terminal so it wraps under itself"]),
                       CardSection(title: "Next events", items: [], note: "Nothing more in your calendars today.")],
            buttons: [CardButton(key: "continue", label: "Continue for 1 hour", role: .primary), CardButton(key: "close", label: "Close", role: .close)])
        XCTAssertEqual(CardText.render(document), """
            Time for a break from Firefox?
            ==============================

            Today  1 h 5 min
              Tue                            0 s
              Wed  ██████                    30 min
              Thu  ████████████              1 h
              Fri  ██████████████████        1 h 30 min
              Sat  ████████████████████████  2 h
              Sun  ▏                         20 s
              Mon  █████████████             1 h 5 min

            You have used Firefox for 1 hour 5 minutes today, and it has been
            minimized. It is your choice: leave it here for today, or continue for 1
            hour.

            To do
              - Send the invoice
              - A very long item that goes on and on past the width of the terminal
                so it wraps under itself

            Next events
              Nothing more in your calendars today.

            [ Continue for 1 hour ]  [ Close ]

            """)
    }

    func testBarsAreExactToAnEighthOfACell() {
        XCTAssertEqual(CardText.bar(0), "")
        XCTAssertEqual(CardText.bar(0.01), "▏")
        XCTAssertEqual(CardText.bar(2.5), "██▌")
        XCTAssertEqual(CardText.bar(1.875), "█▉")
        XCTAssertEqual(CardText.bar(1.75), "█▊")
    }

    /// Feed titles and window titles are untrusted: a terminal escape in them is shown, not obeyed.
    func testControlCharactersAreShownNotSentToTheTerminal() {
        let document = CardDocument(icon: "x", title: "News\u{1B}]0;owned\u{07}", message: "Line one\nline\u{1B}[2J two",
                                    sections: [CardSection(title: "Top stories", items: ["\u{9B}31mRed"])], buttons: [])
        XCTAssertEqual(CardText.render(document), "News^[]0;owned^G\n================\n\nLine one\nline^[[2J two\n\nTop stories\n  - ?31mRed\n")
    }
}
