import ScreenTimeCore
import XCTest

final class NotificationMarkupTests: XCTestCase {
    func testEscapesEveryMarkupCharacter() {
        XCTAssertEqual(NotificationMarkup.escape(#"<b>Tom & Jerry's "show"</b>"#),
                       "&lt;b&gt;Tom &amp; Jerry&apos;s &quot;show&quot;&lt;/b&gt;")
    }

    func testEscapesAmpersandOnceSoEntitiesStayLiteral() {
        XCTAssertEqual(NotificationMarkup.escape("&amp;"), "&amp;amp;")
    }

    func testLeavesPlainTextAndNonASCIIAlone() {
        XCTAssertEqual(NotificationMarkup.escape("10 min left in Firefox — café 🎉"), "10 min left in Firefox — café 🎉")
        XCTAssertEqual(NotificationMarkup.escape(""), "")
    }
}
