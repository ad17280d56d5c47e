import ScreenTimeCore
import XCTest

final class TodoListTests: XCTestCase {
    func testTodoTxtPrioritiesDatesAndDueTags() {
        let list = TodoList(parsing: """
            x 2026-11-29 2026-11-20 (A) Send the invoice due:2026-11-29
            Water the plants +home @flat
            (B) 2026-11-25 Call the dentist due:2026-12-01
            (A) Book train tickets due:2026-11-30 +trip

            # a comment
            (A) Renew the library card due:2026-11-28
            """)
        XCTAssertEqual(list.items.count, 5)
        XCTAssertEqual(list.items[0], TodoList.Item(text: "Send the invoice", done: true, priority: "A",
                                                    due: CivilDate(year: 2026, month: 11, day: 29), line: 1))
        XCTAssertEqual(list.items[1], TodoList.Item(text: "Water the plants +home @flat", line: 2))
        XCTAssertEqual(list.items[2].text, "Call the dentist")
        XCTAssertEqual(list.open.map(\.text), ["Renew the library card", "Book train tickets +trip", "Call the dentist",
                                               "Water the plants +home @flat"])
        XCTAssertEqual(list.due(on: CivilDate(year: 2026, month: 11, day: 30)).map(\.text),
                       ["Renew the library card", "Book train tickets +trip"])
        XCTAssertEqual(list.open.map(\.line), [7, 4, 3, 2])
    }

    func testPlainListsWithBullets() {
        let list = TodoList(parsing: "- Buy bread\n* [ ] Fix the bike\n[x] Pay rent\n- [x] Post the letter\nRead chapter 3\r\n  [ ] Tidy the desk  \n")
        XCTAssertEqual(list.items.map(\.text), ["Buy bread", "Fix the bike", "Pay rent", "Post the letter", "Read chapter 3", "Tidy the desk"])
        XCTAssertEqual(list.items.map(\.done), [false, false, true, true, false, false])
        XCTAssertEqual(list.open.map(\.text), ["Buy bread", "Fix the bike", "Read chapter 3", "Tidy the desk"])
        XCTAssertEqual(list.due(on: CivilDate(year: 2026, month: 11, day: 30)), [])
    }

    func testWhatLooksLikeSyntaxButIsNotStaysText() {
        let list = TodoList(parsing: "(a) lower-case is no priority\ndue:tomorrow is no date\nx\n(C)\n")
        XCTAssertEqual(list.items.map(\.text), ["(a) lower-case is no priority", "due:tomorrow is no date", "x", "(C)"])
        XCTAssertEqual(list.items.map(\.priority), [nil, nil, nil, nil])
    }
}
