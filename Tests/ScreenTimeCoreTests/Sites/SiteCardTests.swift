import ScreenTimeCore
import XCTest

/// The card process's document as a tab shows it.
final class SiteCardTests: XCTestCase {
    func testADocumentKeepsItsContentAndWhatATabCanDo() {
        let document = CardDocument(
            icon: "wind-down", title: "YouTube waits for tomorrow", statistics: CardStatistics(today: 3900, week: [CardDayBar(label: "Fri", seconds: 3900)]),
            message: "Wind Down holds this app back.",
            sections: [CardSection(title: "Leaving early", items: ["Wind Down ends for tonight."])],
            buttons: [CardButton(key: "launch:org.gnome.Sudoku", label: "Sudoku", launch: .desktopEntry("org.gnome.Sudoku")),
                      CardButton(key: "launch:https://example.org/calm", label: "example.org/calm", launch: .uri("https://example.org/calm")),
                      CardButton(key: "launch:music", label: "Sleep music", launch: .music("/music.m3u")),
                      CardButton(key: CardChoice.bedtime, label: "Go to bed", role: .primary),
                      CardButton(key: CardChoice.continue, label: "15 more minutes"),
                      CardButton(key: CardChoice.close, label: "Close", role: .close)])
        let card = SiteCard(document: document, site: "youtube.com")
        XCTAssertEqual(card.site, "youtube.com")
        XCTAssertEqual(card.message, "Wind Down holds this site back.")
        XCTAssertEqual(card.today, "Today: 1 hour 5 minutes")
        XCTAssertEqual(card.week, document.statistics?.week)
        XCTAssertEqual(card.sections, document.sections)
        XCTAssertEqual(card.buttons.map(\.key), ["launch:https://example.org/calm", CardChoice.bedtime, CardChoice.continue, BrowserTab.closeTab],
                       "an app or the music cannot start from a page; Close closes the tab")
        XCTAssertEqual(card.buttons.map(\.primary), [false, true, false, false])
        XCTAssertEqual(card.buttons.first?.link, "https://example.org/calm")
        XCTAssertEqual(card.buttons.last?.label, SiteCard.closeTab)
    }

    func testWithoutAPrimaryButtonClosingTheTabIsTheDefault() {
        let document = CardDocument(icon: "x", title: "t", message: "m", buttons: [CardButton(key: CardChoice.close, label: "Close", role: .close)])
        XCTAssertEqual(SiteCard(document: document, site: "example.net").buttons.map(\.primary), [true])
    }
}
