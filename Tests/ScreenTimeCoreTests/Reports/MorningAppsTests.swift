import ScreenTimeCore
import Harnesses
import XCTest

final class MorningAppsTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var apps: MorningApps { MorningApps(boundary: DayBoundary(), zone: zone) }

    func use(_ app: AppID, _ day: Int, _ from: String, minutes: Double) -> MorningApps.Use {
        let start = zone.at("2026-11-\(day) \(from)")
        return MorningApps.Use(app: app, start: start, end: start.addingTimeInterval(minutes * 60))
    }

    func testAppsOfTheFirstTwoHoursRankedByMornings() {
        var uses: [MorningApps.Use] = []
        for day in 16...29 {
            // The day's first activity moves; the morning is the two hours after it.
            let wake = day % 2 == 0 ? "07:00" : "09:30"
            uses.append(use("org.mozilla.Thunderbird", day, wake, minutes: 10))
            if day % 3 != 0 { uses.append(use("firefox", day, day % 2 == 0 ? "08:30" : "11:00", minutes: 20)) }
            if day >= 26 { uses.append(use("signal-desktop", day, day % 2 == 0 ? "07:20" : "09:50", minutes: 5)) }
            // Two and a half hours after waking: not the morning.
            uses.append(use("steam", day, day % 2 == 0 ? "09:30" : "12:00", minutes: 60))
        }
        // Once only: no habit.
        uses.append(use("gimp", 20, "07:05", minutes: 30))
        // Today and long ago do not count.
        uses.append(contentsOf: (1...3).map { _ in use("xterm", 30, "07:00", minutes: 30) })
        uses.append(use("xterm", 10, "07:00", minutes: 30))
        uses.append(use("xterm", 11, "07:00", minutes: 30))
        XCTAssertEqual(apps.usual(uses, before: zone.at("2026-11-30 07:30")),
                       ["org.mozilla.Thunderbird", "firefox", "signal-desktop"])
    }

    func testTheHistoryReadIsTheFourteenDaysBeforeToday() {
        XCTAssertEqual(apps.history(before: zone.at("2026-11-30 07:30")), zone.at("2026-11-16 04:00")..<zone.at("2026-11-30 04:00"))
        XCTAssertEqual(apps.usual([], before: zone.at("2026-11-30 07:30")), [])
    }

    func testAtMostTheLimit() {
        let uses = (16...20).flatMap { day in (0..<8).map { use(AppID("app\($0)"), day, "08:0\($0)", minutes: Double(10 - $0)) } }
        XCTAssertEqual(apps.usual(uses, before: zone.at("2026-11-30 07:30")), ["app0", "app1", "app2", "app3", "app4"])
    }
}
