import ScreenTimeCore
import XCTest

final class DesktopEntryTests: XCTestCase {
    func testHiddenFromMenusStillNamesAnApp() throws {
        let entry = try XCTUnwrap(DesktopEntry(id: "org.example.Helper", text: """
            [Desktop Entry]
            Type=Application
            Name=Helper
            NoDisplay=true
            Categories=Chat;Network;
            """))
        XCTAssertEqual(entry, DesktopEntry(id: "org.example.Helper", name: "Helper", categories: ["Chat", "Network"], noDisplay: true))
        XCTAssertEqual(DesktopEntry(id: "a", text: "[Desktop Entry]\nType=Application\nName=A\n")?.noDisplay, false)
        XCTAssertNil(DesktopEntry(id: "b", text: "[Desktop Entry]\nType=Application\nName=B\nHidden=true\n"))
    }
}
