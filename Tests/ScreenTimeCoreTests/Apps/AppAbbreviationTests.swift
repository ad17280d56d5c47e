import ScreenTimeCore
import XCTest

final class AppAbbreviationTests: XCTestCase {
    let known: Set<AppID> = ["org.gnome.Calculator", "org.gnome.TextEditor", "org.kde.kate", "kate", "firefox-esr"]

    func testTheOneKnownIDItAbbreviates() {
        XCTAssertEqual(AppAbbreviation.expand("calculator", known: known), .id("org.gnome.Calculator"))
        XCTAssertEqual(AppAbbreviation.expand("Firefox-ESR", known: known), .id("firefox-esr"))
    }

    func testAKnownOrUnknownIDStaysAsTyped() {
        XCTAssertEqual(AppAbbreviation.expand("kate", known: known), .id("kate"), "an exact id is never expanded")
        XCTAssertEqual(AppAbbreviation.expand("notes", known: known), .id("notes"))
        XCTAssertEqual(AppAbbreviation.expand("gnome", known: known), .id("gnome"), "only the last part of a dotted id")
    }

    func testSeveralCandidatesAreListed() {
        XCTAssertEqual(AppAbbreviation.expand("KATE", known: known), .ambiguous(["kate", "org.kde.kate"]))
    }
}
