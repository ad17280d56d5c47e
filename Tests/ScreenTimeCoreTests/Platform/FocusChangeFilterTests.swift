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

    /// A window whose app id changes (a Wayland client setting it after it mapped) is another app.
    func testTheSameWindowWithAnotherAppIDIsANewFocus() {
        var filter = FocusChangeFilter()
        _ = filter.change(to: mail)
        var relabelled = mail
        relabelled.wmClass = "org.example.Mail"
        XCTAssertEqual(filter.change(to: relabelled), .focused(relabelled))
    }
}
