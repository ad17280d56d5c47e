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

    func testTextShowsModeReasonNextChangeBreakAndTheModesCommands() throws {
        let zone = FixedOffsetZone(seconds: 3600)
        let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600) // 08:00 local
        var engine = Engine(settings: Settings(), zone: zone, now: morning)
        let switched = ManualSwitch(mode: .productivity, since: morning)
        let end = morning.addingTimeInterval(4 * 3600)
        _ = engine.handle(.mode(ModeDecision(mode: .productivity, reason: .manual(switched, endsAt: end), since: morning,
                                             next: ModeChange(at: end, mode: .standard, reason: .standard),
                                             productivityBreak: .working(nextBreak: morning.addingTimeInterval(3600)))),
                          at: morning)
        _ = engine.handle(.focus(FocusedApp(app: AppInfo(id: "mpv", name: "mpv", categories: ["Video"]), window: WindowID(1), title: "")),
                          at: morning)
        let status = engine.status(at: morning.addingTimeInterval(600), zone: zone)
        XCTAssertEqual(StatusFormat.text(status), """
            Mode: Productivity (you switched at 2026-11-29 08:00 until 2026-11-29 12:00)
            Next break in 50 min
            Next: Standard at 12:00 (in 3 h 50 min)
            Today: 0 s of app time since 04:00
              mpv        0 s  waits until Productivity ends
            Commands: screentime break · screentime mode auto · screentime continue APP
            """)
        XCTAssertEqual(status.next?.at, "2026-11-29T12:00:00+01:00")
        XCTAssertEqual(try StatusFormat.decode(StatusFormat.json(status)), status)
    }

    func testTextAndJSONSayWhenSavingFails() throws {
        let zone = FixedOffsetZone(seconds: 3600)
        let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600) // 08:00 local
        var status = Engine(settings: Settings(), zone: zone, now: morning).status(at: morning, zone: zone)
        XCTAssertFalse(StatusFormat.text(status).contains("Saving problem"))
        status.savingProblem = "since 2026-11-29T08:00:00+01:00: the directory /data is not writable"
        XCTAssertTrue(StatusFormat.text(status).contains("""
            Saving problem: usage is not being saved since 2026-11-29T08:00:00+01:00: the directory /data is not writable (time still counts and is kept in memory until it can be)
            """), StatusFormat.text(status))
        XCTAssertTrue(StatusFormat.json(status).contains("\"savingProblem\""))
        XCTAssertEqual(try StatusFormat.decode(StatusFormat.json(status)), status)
    }
}
