import ScreenTimeCore
import XCTest

final class FocusChangeFilterTests: XCTestCase {
    private let mail = WindowFacts(window: WindowID(1), wmClass: "mail", title: "Inbox")
    private let editor = WindowFacts(window: WindowID(2), wmClass: "editor")

    func testNewWindowTitleChangeRepeatAndNone() {
        var filter = FocusChangeFilter()
        XCTAssertNil(filter.change(to: nil), "nothing told yet, nothing to say")
        XCTAssertEqual(filter.change(to: mail), .focused(mail))
        XCTAssertNil(filter.change(to: mail), "the same window again")
        var renamed = mail
        renamed.title = "Inbox (1)"
        XCTAssertEqual(filter.change(to: renamed), .titleChanged(renamed))
        XCTAssertEqual(filter.change(to: editor), .focused(editor))
        XCTAssertEqual(filter.change(to: nil), .focused(nil))
        XCTAssertNil(filter.change(to: nil))
    }

    func testAssumedFocusIsNotToldAgain() {
        var filter = FocusChangeFilter()
        filter.assume(mail)
        XCTAssertNil(filter.change(to: mail))
        XCTAssertEqual(filter.change(to: nil), .focused(nil))
    }
}
