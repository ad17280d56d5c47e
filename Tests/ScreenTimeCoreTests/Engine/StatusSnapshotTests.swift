import FoundationEssentials
import ScreenTimeCore
import XCTest

final class StatusSnapshotTests: XCTestCase {
    func testTextShowsModeTodayAndEachLimitsTimeLeft() throws {
        var settings = Settings()
        settings.limits["firefox"] = 45 * 60
        settings.important = ["keepassxc"]
        let zone = FixedOffsetZone(seconds: 3600)
        let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600) // 08:00 local
        var engine = Engine(settings: settings, zone: zone, now: morning,
                            usageToday: ["firefox": 45 * 60, "keepassxc": 300], grantsToday: [:])
        _ = engine.handle(.focus(FocusedApp(app: AppInfo(id: "xterm", name: "XTerm"), window: WindowID(1), title: "")), at: morning)
        let status = engine.status(at: morning.addingTimeInterval(600), zone: zone)
        XCTAssertEqual(StatusFormat.text(status), """
            Mode: Standard (always on when no other mode is active)
            Today: 1 h of app time since 04:00
              firefox       45 min  limit 45 min reached
            ▶ XTerm         10 min  50 min left of 1 h
              keepassxc      5 min  important, no limit
            Commands: screentime report today · screentime limit set APP 1h · screentime important add APP
            """)
        XCTAssertEqual(try StatusFormat.decode(StatusFormat.json(status)), status)
    }
}
