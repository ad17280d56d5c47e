import ScreenTimeCore
import XCTest

final class GroupAndRuleEditsTests: XCTestCase {
    func testEditsKeepCommentsAndReadBackAsSettings() throws {
        var file = try KeyFile(parsing: """
            # mine
            [groups]
            # my work tools
            productivity = gedit

            [rules]
            # sites
            """)
        file.setGroupMember(.productivity, "org.gnome.Builder", true)
        file.setGroupMember(.productivity, "gedit", false)
        file.setGroupMember(.socialApps, "signal-desktop", true)
        file.addTitleRule("youtube", TitleRule.Match(app: "firefox", title: "YouTube"))
        file.addTitleRule("youtube", TitleRule.Match(app: "chromium", title: "YouTube"))
        file.addTitleRule("youtube", TitleRule.Match(app: "firefox", title: "YouTube"))
        XCTAssertEqual(file.text, """
            # mine
            [groups]
            # my work tools
            productivity = org.gnome.Builder;-gedit
            social-apps = signal-desktop

            [rules]
            # sites
            youtube = firefox:YouTube;chromium:YouTube

            """)
        let settings = try Settings(KeyFile(parsing: file.text), path: "config")
        XCTAssertEqual(settings.groupEdits[.productivity], GroupEdit(added: ["org.gnome.Builder"], removed: ["gedit"]))
        XCTAssertEqual(settings.titleRules.map(\.name), ["youtube"])
        XCTAssertEqual(settings.titleRules.first?.matches.count, 2)
        XCTAssertTrue(file.removeTitleRule("youtube"))
        XCTAssertFalse(file.removeTitleRule("youtube"))
    }

    func testBadGroupsAndRulesNameTheLine() {
        XCTAssertThrowsError(try Settings(KeyFile(parsing: "[groups]\nfun = mpv\n"), path: "config")) { error in
            XCTAssertEqual((error as? ConfigError)?.line, 2)
            XCTAssertTrue("\(error)".contains("unknown group `fun`"))
        }
        XCTAssertThrowsError(try Settings(KeyFile(parsing: "[rules]\n\nyoutube = firefox\n"), path: "config")) { error in
            XCTAssertEqual((error as? ConfigError)?.line, 3)
            XCTAssertTrue("\(error)".contains("APP:TITLE"))
        }
    }
}
