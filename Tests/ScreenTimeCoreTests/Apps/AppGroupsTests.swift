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
        XCTAssertEqual(settings.groups(of: firefox), [])
        XCTAssertEqual(settings.classes(of: clock), [.clock])
        XCTAssertEqual(settings.classes(of: settingsApp), [.essential], "system settings are never restricted")
        XCTAssertNil(settings.limit(for: settingsApp))
        XCTAssertEqual(settings.limit(for: game), 3600)
    }

    func testUserEditsAddAndRemoveAndExemptionsBecomeClasses() {
        var settings = Settings()
        settings.groupEdits[.productivity] = GroupEdit(list: "firefox;-org.gnome.Builder")
        settings.groupEdits[.socialApps] = GroupEdit(list: "+signal-desktop")
        settings.important = ["firefox"]
        settings.essential = ["supertux2"]
        XCTAssertEqual(settings.groups(of: builder), [])
        XCTAssertEqual(settings.classes(of: firefox), [.productivity, .important])
        XCTAssertEqual(settings.classes(of: signal), [.communication, .chosenSocial])
        XCTAssertEqual(settings.classes(of: game), [.essential])
        XCTAssertEqual(settings.classes(of: AppInfo(id: "screentime", name: "Screen Time")), [.essential])
    }

    func testGroupEditListRoundTrips() {
        let edit = GroupEdit(list: " b ; +a;-c;-a ")
        XCTAssertEqual(edit.added, ["b"])
        XCTAssertEqual(edit.removed, ["a", "c"])
        XCTAssertEqual(edit.list, "b;-a;-c")
        XCTAssertEqual(GroupEdit(list: edit.list), edit)
    }
}
