import ScreenTimeCore
import XCTest

final class MarkupTextTests: XCTestCase {
    func testEscapesEveryMarkupCharacter() {
        XCTAssertEqual(MarkupText.escape(#"<b>Tom & Jerry's "show"</b>"#),
                       "&lt;b&gt;Tom &amp; Jerry&apos;s &quot;show&quot;&lt;/b&gt;")
    }

    func testEscapesAmpersandOnceSoEntitiesStayLiteral() {
        XCTAssertEqual(MarkupText.escape("&amp;"), "&amp;amp;")
    }

    func testLeavesPlainTextAndNonASCIIAlone() {
        XCTAssertEqual(MarkupText.escape("10 min left in Firefox — café 🎉"), "10 min left in Firefox — café 🎉")
        XCTAssertEqual(MarkupText.escape(""), "")
    }

    /// Issue 19: Swift joins these into one `Character` with the markup character, so a comparison
    /// of Characters never matched and the browser saw a bare `<`, `>` or `"`.
    func testEscapesMarkupCharactersInsideGraphemeClusters() {
        XCTAssertEqual(MarkupText.escape("\u{0600}<svg onload=x>"), "\u{0600}&lt;svg onload=x&gt;")
        XCTAssertEqual(MarkupText.escape("a>\u{0338}b"), "a&gt;\u{0338}b")
        XCTAssertEqual(MarkupText.escape("\"\u{0301} onerror=x"), "&quot;\u{0301} onerror=x")
        XCTAssertEqual(MarkupText.escape("'\u{0301}&\u{20DD}"), "&apos;\u{0301}&amp;\u{20DD}")
    }
}
