import ScreenTimeCore
import XCTest

final class AppGroupsTests: XCTestCase {
    let builder = AppInfo(id: "org.gnome.Builder", name: "Builder", categories: ["GNOME", "Development", "IDE"])
    let firefox = AppInfo(id: "firefox", name: "Firefox", categories: ["Network", "WebBrowser"])
    let signal = AppInfo(id: "signal-desktop", name: "Signal", categories: ["Network", "InstantMessaging", "Chat"])
    let clock = AppInfo(id: "org.gnome.clocks", name: "Clocks", categories: ["GNOME", "Utility", "Clock"])
    let settingsApp = AppInfo(id: "gnome-control-center", name: "Settings", categories: ["GNOME", "Settings"])
    let game = AppInfo(id: "supertux2", name: "SuperTux", categories: ["Game", "ArcadeGame"])

    func testCategoriesPlaceAppsInBuiltInGroups() {
        let settings = Settings()
        XCTAssertEqual(settings.groups(of: builder), [.productivity])
        XCTAssertEqual(settings.groups(of: signal), [.communication])
        XCTAssertEqual(settings.groups(of: clock), [.clock])
        XCTAssertEqual(settings.groups(of: game), [.content])
        XCTAssertEqual(settings.groups(of: firefox), [.browsers])
        XCTAssertEqual(settings.classes(of: clock), [.clock])
        XCTAssertEqual(settings.classes(of: settingsApp), [.essential], "system settings are never restricted")
        XCTAssertNil(settings.limit(for: settingsApp))
        XCTAssertEqual(settings.limit(for: game), 3600)
    }

    func testEachCategoryPlacesAnAppInEveryGroupListingIt() {
        let settings = Settings()
        let categories = Set(AppGroup.allCases.flatMap(\.categories))
        for category in categories {
            let app = AppInfo(id: "app", name: "App", categories: ["Utility", category])
            XCTAssertEqual(settings.groups(of: app), Set(AppGroup.allCases.filter { $0.categories.contains(category) }), category)
        }
        let both = AppInfo(id: "app", name: "App", categories: ["Game", "Chat", "Game"])
        XCTAssertEqual(settings.groups(of: both), [.content, .communication])
    }

    func testUserEditsAddAndRemoveAndExemptionsBecomeClasses() {
        var settings = Settings()
        settings.groupEdits[.productivity] = GroupEdit(list: "firefox;-org.gnome.Builder")
        settings.groupEdits[.socialApps] = GroupEdit(list: "+signal-desktop")
        settings.important = ["firefox"]
        settings.essential = ["supertux2"]
        XCTAssertEqual(settings.groups(of: builder), [])
        XCTAssertEqual(settings.classes(of: firefox), [.productivity, .important, .browsers])
        XCTAssertEqual(settings.classes(of: signal), [.communication, .chosenSocial])
        XCTAssertEqual(settings.classes(of: game), [.essential])
        XCTAssertEqual(settings.classes(of: AppInfo(id: "screentime", name: "Screen Time")), [.essential])
    }

    /// On a desktop most hours are work: the default limit covers leisure and the unknown only.
    func testDefaultLimitCoversLeisureAndUnknownAppsUnlessScopeIsAll() throws {
        let xterm = AppInfo(id: "debian-xterm", name: "XTerm", categories: ["System", "TerminalEmulator"])
        let unknown = AppInfo(id: "someapp", name: "someapp")
        let youtube = AppInfo(id: "youtube", name: "YouTube (Firefox)")
        var settings = Settings()
        XCTAssertTrue(settings.groups(of: xterm).contains(.productivity), "terminals are productivity")
        for app in [builder, firefox, signal, clock, xterm] { XCTAssertNil(settings.limit(for: app), app.name) }
        for app in [game, unknown, youtube] { XCTAssertEqual(settings.limit(for: app), 3600, app.name) }
        settings.limits["firefox"] = 2 * 3600
        XCTAssertEqual(settings.limit(for: firefox), 2 * 3600, "an app's own limit applies in any scope")

        let all = try Settings(KeyFile(parsing: "[limits]\nscope = all\n"), path: "config")
        XCTAssertEqual(all.limitScope, .all)
        for app in [builder, firefox, signal, xterm, game] { XCTAssertEqual(all.limit(for: app), 3600, app.name) }
        XCTAssertNil(all.limit(for: settingsApp))
        XCTAssertThrowsError(try Settings(KeyFile(parsing: "[limits]\n\nscope = work\n"), path: "config")) { error in
            XCTAssertEqual("\(error)", "config:3: `work` is not a scope (known: leisure, all)")
        }
    }

    func testAGroupNameInLimitsIsTheGroupsSharedLimit() throws {
        let settings = try Settings(KeyFile(parsing: "[limits]\ncontent = 2h\nsupertux2 = 30m\n"), path: "config")
        XCTAssertEqual(settings.groupLimits, [.content: 7200])
        XCTAssertEqual(settings.limits, ["supertux2": 1800])
        XCTAssertEqual(settings.groupLimits(for: game).map(\.group), [.content])
        XCTAssertTrue(settings.groupLimits(for: settingsApp).isEmpty)
    }

    func testGroupEditListRoundTrips() {
        let edit = GroupEdit(list: " b ; +a;-c;-a ")
        XCTAssertEqual(edit.added, ["b"])
        XCTAssertEqual(edit.removed, ["a", "c"])
        XCTAssertEqual(edit.list, "b;-a;-c")
        XCTAssertEqual(GroupEdit(list: edit.list), edit)
    }
}
