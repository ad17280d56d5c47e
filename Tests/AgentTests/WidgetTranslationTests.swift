import Foundation
import Harnesses
import XCTest

/// The desktop widgets' catalogues (desktop/gnome-shell/po, desktop/plasma/po) against their sources.
final class WidgetTranslationTests: XCTestCase {
    /// Every string xgettext finds in the sources today is in the committed template (and no stale
    /// one), and every language's .po translates all of it, none fuzzy, its placeholders as msgfmt
    /// checks them: a string added without `scripts/update-translations.sh` and its translation fails.
    func testTheTemplatesAreUpToDateAndEveryCatalogueIsComplete() throws {
        let check = Process()
        check.executableURL = GnomeShellHarness.repositoryRoot.appendingPathComponent("scripts/update-translations.sh")
        check.arguments = ["--check"]
        let result = try check.finishedOutput()
        XCTAssertEqual(result.status, 0, result.out + result.err)
        // Both widgets' German, counted: a check that ran over no catalogue proves nothing.
        XCTAssertEqual(result.err.components(separatedBy: " translated messages.").count - 1, 2, result.err)
    }
}
