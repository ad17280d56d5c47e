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
        file.addTitleRule("docs", TitleRule.Match(app: "firefox", title: "Docs"))
        file.addTitleRule("docs", TitleRule.Match(app: "chromium", title: "Docs"))
        file.addTitleRule("docs", TitleRule.Match(app: "firefox", title: "Docs"))
        XCTAssertEqual(file.text, """
            # mine
            [groups]
            # my work tools
            productivity = org.gnome.Builder;-gedit
            social-apps = signal-desktop

            [rules]
            # sites
            docs = firefox:Docs;chromium:Docs

            """)
        let settings = try Settings(KeyFile(parsing: file.text), path: "config")
        XCTAssertEqual(settings.groupEdits[.productivity], GroupEdit(added: ["org.gnome.Builder"], removed: ["gedit"]))
        XCTAssertEqual(settings.titleRules.map(\.name), TitleRule.builtIn.map(\.name) + ["docs"])
        XCTAssertEqual(settings.titleRules.last?.matches.count, 2)
        XCTAssertTrue(file.removeTitleRule("docs"))
        XCTAssertFalse(file.removeTitleRule("docs"))
    }

    /// A built-in rule removed stays removed (`youtube =`, since a line taken out would bring it
    /// back); one extended keeps its built-in match.
    func testRemovingABuiltInRuleSticks() throws {
        var file = try KeyFile(parsing: "[rules]\n")
        XCTAssertTrue(file.removeTitleRule("youtube"))
        XCTAssertFalse(file.removeTitleRule("youtube"))
        file.addTitleRule("reddit", TitleRule.Match(app: "org.gnome.Epiphany", title: "old.reddit"))
        XCTAssertEqual(file.text, "[rules]\nyoutube = \nreddit = *:Reddit;org.gnome.Epiphany:old.reddit\n")
        let settings = try Settings(KeyFile(parsing: file.text), path: "config")
        XCTAssertFalse(settings.titleRules.contains { $0.name == "youtube" })
        XCTAssertEqual(settings.titleRules.first { $0.name == "reddit" }?.matches.map(\.text),
                       ["*:Reddit", "org.gnome.Epiphany:old.reddit"])
        let firefox = AppInfo(id: "firefox-esr", name: "Firefox", categories: ["Network", "WebBrowser"])
        XCTAssertNil(settings.titleRules.virtualApp(for: firefox, title: "Cats - YouTube"))
        XCTAssertEqual(Settings().titleRules.virtualApp(for: firefox, title: "Cats - YouTube")?.id, "youtube")
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
