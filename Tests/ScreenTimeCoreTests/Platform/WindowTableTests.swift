import ScreenTimeCore
import XCTest

final class WindowTableTests: XCTestCase {
    private func table() -> WindowTable {
        var table = WindowTable()
        table.entries[7] = .init(facts: WindowFacts(window: WindowID(7), wmClass: "mail"), title: "Inbox")
        table.entries[3] = .init(facts: WindowFacts(window: WindowID(3), wmClass: "mail"), title: "Draft")
        table.entries[5] = .init(facts: WindowFacts(window: WindowID(5), wmClass: "editor"), title: "notes.txt")
        return table
    }

    func testTitlesOnlyWhereNeeded() {
        let table = table()
        XCTAssertEqual(table.facts(of: 7, needsTitle: { _ in false })?.title, "")
        XCTAssertEqual(table.facts(of: 7, needsTitle: { $0.wmClass == "mail" })?.title, "Inbox")
        XCTAssertNil(table.facts(of: 9, needsTitle: { _ in true }))
    }

    func testWindowsOfAnAppAsIdentifyNamesThem() {
        let byClass: (WindowFacts) -> AppID = { AppID($0.wmClass ?? "") }
        XCTAssertEqual(table().windows(of: AppID("mail"), identify: byClass, needsTitle: { _ in false }), [3, 7])
        // A title rule: only the draft counts as the app.
        let byTitle: (WindowFacts) -> AppID = { AppID($0.title == "Draft" ? "drafts" : $0.wmClass ?? "") }
        XCTAssertEqual(table().windows(of: AppID("drafts"), identify: byTitle, needsTitle: { _ in true }), [3])
    }

    func testFocusToldOnceThenTitleChangesThenNone() {
        var table = table()
        table.focused = 7
        XCTAssertEqual(table.currentFocus(needsTitle: { _ in true })?.title, "Inbox")
        XCTAssertNil(table.focusChange(needsTitle: { _ in true }), "told at connect")
        table.entries[7]?.title = "Inbox (1)"
        guard case .titleChanged(let facts) = table.focusChange(needsTitle: { _ in true }) else { return XCTFail() }
        XCTAssertEqual(facts.title, "Inbox (1)")
        table.entries[7] = nil
        XCTAssertEqual(table.focusChange(needsTitle: { _ in true }), .focused(nil), "a window the table lost is no focus")
    }
}
