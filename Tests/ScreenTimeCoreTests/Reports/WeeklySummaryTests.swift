import ScreenTimeCore
import Harnesses
import XCTest

final class WeeklySummaryTests: XCTestCase {
    let zone = CentralEuropeanZone()
    let boundary = DayBoundary() // 04:00

    func instant(_ date: String, _ hour: Int, _ minute: Int = 0) -> Date {
        zone.instant(of: CivilDate(parsing: date)!, at: WallTime(hour: hour, minute: minute))
    }

    /// A Sunday night after midnight still belongs to Sunday's week; the week turns at Monday's day start.
    func testTheWeekTurnsAtMondaysDayStart() {
        func week(_ date: String, _ hour: Int, start: Weekday = .monday) -> String {
            WeeklySummary.week(containing: instant(date, hour), boundary: boundary, weekStart: start, zone: zone).description
        }
        XCTAssertEqual(week("2026-11-29", 23), "2026-11-23") // Sunday
        XCTAssertEqual(week("2026-11-30", 3), "2026-11-23") // Monday 03:00: still Sunday's day
        XCTAssertEqual(week("2026-11-30", 4), "2026-11-30")
        XCTAssertEqual(week("2026-12-06", 12), "2026-11-30")
        XCTAssertEqual(week("2026-11-29", 12, start: .sunday), "2026-11-29")
        XCTAssertEqual(week("2026-11-28", 12, start: .sunday), "2026-11-22")
    }

    /// Five weeks of simulated activity every 50 minutes across the end of summer time (the
    /// decision remembered as the agent would, across restarts too): one summary a week, at the
    /// first activity after the week's first day start, none on the very first run.
    func testOneSummaryAWeekAtTheFirstActivity() {
        var remembered: CivilDate?
        var shown: [(at: Date, week: CivilDate)] = []
        var now = instant("2026-10-14", 10)
        while now < instant("2026-11-18", 0) {
            let decision = WeeklySummary.decide(activityAt: now, remembered: remembered, boundary: boundary, weekStart: .monday, zone: zone)
            if case .summarize(let week) = decision { shown.append((now, week)) }
            if let week = decision.week { remembered = week }
            now = now.addingTimeInterval(50 * 60)
        }
        XCTAssertEqual(shown.map(\.week.description), ["2026-10-19", "2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16"])
        for (at, week) in shown {
            let weekStart = boundary.start(ofDay: week, in: zone)
            XCTAssertGreaterThanOrEqual(at, weekStart, "\(week)")
            XCTAssertLessThan(at, weekStart.addingTimeInterval(50 * 60), "\(week): the first activity after the week began")
            XCTAssertEqual(zone.localDateTime(of: at).date.weekday, .monday)
        }
        XCTAssertEqual(WeeklySummary.summarized(before: shown[0].week), CivilDate(parsing: "2026-10-12")!...CivilDate(parsing: "2026-10-18")!)
    }

    func testNothingWhenTheWeekWasShownOrTheClockWentBack() {
        let monday = CivilDate(parsing: "2026-11-30")!
        func decide(_ at: Date, _ remembered: CivilDate?) -> WeeklySummary.Decision {
            WeeklySummary.decide(activityAt: at, remembered: remembered, boundary: boundary, weekStart: .monday, zone: zone)
        }
        XCTAssertEqual(decide(instant("2026-11-30", 9), nil), .remember(week: monday))
        XCTAssertEqual(decide(instant("2026-11-30", 9), monday), .none)
        XCTAssertEqual(decide(instant("2026-11-24", 9), monday), .none)
        // Away for three weeks: the week before this one is summed up, once.
        XCTAssertEqual(decide(instant("2026-12-22", 9), monday), .summarize(week: CivilDate(parsing: "2026-12-21")!))
    }

    func testTheNotificationSaysTheTotalsTheChangeAndTheTopApp() {
        let days = CivilDate(parsing: "2026-11-23")!...CivilDate(parsing: "2026-11-29")!
        let figures = WeeklySummary.Figures(totalSeconds: 45_000, dailyAverageSeconds: 45_000 / 7, previousSeconds: 52_200,
                                            apps: [.init(name: "Firefox", seconds: 18_600), .init(name: "XTerm", seconds: 600)])
        let request = WeeklySummary.notification(figures, days: days, page: "/home/u/.local/state/screentime/last-week.html")
        XCTAssertEqual(request.summary, "Last week: 12 h 30 min of screen time")
        XCTAssertEqual(request.body, "23–29 Nov: 1 h 47 min a day on average; 2 h less than the week before. Most used: Firefox, 5 h 10 min.")
        XCTAssertEqual(request.actions, [NotificationAction(key: "default", label: "Open the report")])
        XCTAssertEqual(request.link, NotificationLink(url: "file:///home/u/.local/state/screentime/last-week.html", label: "Open the full report"))

        let quiet = WeeklySummary.Figures(totalSeconds: 0, dailyAverageSeconds: 0, previousSeconds: 0, apps: [])
        XCTAssertEqual(WeeklySummary.notification(quiet, days: CivilDate(parsing: "2026-12-28")!...CivilDate(parsing: "2027-01-03")!, page: "/p").body,
                       "28 Dec 2026 – 3 Jan 2027: 0 s a day on average; nothing was recorded the week before.")
        let more = WeeklySummary.Figures(totalSeconds: 7200, dailyAverageSeconds: 7200 / 7, previousSeconds: 3600, apps: [])
        XCTAssertTrue(WeeklySummary.notification(more, days: CivilDate(parsing: "2026-11-30")!...CivilDate(parsing: "2026-12-06")!, page: "/p")
            .body.hasPrefix("30 Nov – 6 Dec: 17 min a day on average; 1 h more than the week before."))
    }

    /// The figures are read from what `screentime report --json` prints, the rest ignored.
    func testFiguresDecodeFromTheReportsJSON() throws {
        let json = #"{"apps":[{"days":{},"group":"browsers","id":"firefox","name":"Firefox","seconds":6000}],"dailyAverageSeconds":1697.5,"#
            + #""previous":{"from":"x","pickups":0,"seconds":120,"switches":0},"title":"7 days","totalSeconds":11880}"#
        XCTAssertEqual(try WeeklySummary.Figures.decode(Array(json.utf8)),
                       WeeklySummary.Figures(totalSeconds: 11_880, dailyAverageSeconds: 1697.5, previousSeconds: 120, apps: [.init(name: "Firefox", seconds: 6000)]))
    }
}
