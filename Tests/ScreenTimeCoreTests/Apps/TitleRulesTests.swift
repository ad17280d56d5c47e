import ScreenTimeCore
import XCTest

final class TitleRulesTests: XCTestCase {
    let firefox = AppInfo(id: "firefox", name: "Firefox", icon: "firefox")
    let chromium = AppInfo(id: "chromium", name: "Chromium", icon: "chromium")
    let rules = [
        TitleRule(name: "youtube", matches: [TitleRule.Match(app: "firefox", title: "YouTube"),
                                             TitleRule.Match(app: "chromium", title: "YouTube")]),
        TitleRule(name: "news", matches: [TitleRule.Match(app: "firefox", title: "News")]),
    ]

    func testMatchesTheAppAndTitleCaseInsensitively() {
        XCTAssertEqual(rules.virtualApp(for: firefox, title: "Cats - YOUTUBE — Mozilla Firefox"),
                       AppInfo(id: "youtube", name: "YouTube (Firefox)", icon: "firefox"))
        XCTAssertEqual(rules.app(for: chromium, title: "youtube").id, "youtube")
        XCTAssertEqual(rules.app(for: chromium, title: "News").id, "chromium", "the news rule names firefox only")
        XCTAssertEqual(rules.app(for: firefox, title: "News about YouTube").id, "youtube", "the first rule wins")
        XCTAssertNil(rules.virtualApp(for: AppInfo(id: "xterm", name: "XTerm"), title: "youtube-dl"))
    }

    func testMatchTextSplitsAtTheFirstColon() {
        XCTAssertEqual(TitleRule.Match(text: " firefox : Inbox: Mail "), TitleRule.Match(app: "firefox", title: "Inbox: Mail"))
        XCTAssertNil(TitleRule.Match(text: "firefox"))
        XCTAssertNil(TitleRule.Match(text: "firefox:"))
        XCTAssertNil(TitleRule.Match(text: ":YouTube"))
    }

    /// Which windows' titles the agent reads: those some rule may turn into another app.
    func testMayApplyToTheRulesAppsAndToEveryBrowserForTheBuiltInSites() {
        XCTAssertTrue(rules.mayApply(to: firefox))
        XCTAssertFalse(rules.mayApply(to: AppInfo(id: "xterm", name: "XTerm")))
        let epiphany = AppInfo(id: "org.gnome.Epiphany", name: "Web", categories: ["Network", "WebBrowser"])
        XCTAssertFalse(rules.mayApply(to: epiphany))
        XCTAssertTrue(TitleRule.builtIn.mayApply(to: epiphany), "a built-in site rule looks at any browser")
        XCTAssertFalse(TitleRule.builtIn.mayApply(to: AppInfo(id: "gimp", name: "GIMP", categories: ["Graphics"])))
    }
}
