import ScreenTimeCore
import Harnesses
import XCTest

/// Pickups, switches and the per-day split, through the report the tally feeds.
final class UsageTallyTests: XCTestCase {
    let zone = CentralEuropeanZone()
    let boundary = DayBoundary()

    func use(_ app: AppID, _ from: String, minutes: Double, mode: Mode = .standard) -> UsageReport.Interval {
        let start = zone.at(from)
        return UsageReport.Interval(app: app, mode: mode.rawValue, start: start, end: start.addingTimeInterval(minutes * 60))
    }

    func report(_ intervals: [UsageReport.Interval], lastEndBefore: Date? = nil, from: CivilDate, to: CivilDate) -> UsageReport {
        UsageReport(title: "t", range: ReportRange(from: from, to: to, boundary: boundary, zone: zone),
                    history: .init(intervals: intervals, lastEndBefore: lastEndBefore), previous: .init(intervals: [], lastEndBefore: nil),
                    bypasses: [], limitHits: [], names: { $0.rawValue }, group: { $0 == "xterm" ? "productivity" : "other" },
                    idleThreshold: 180, boundary: boundary, zone: zone)
    }

    let day = CivilDate(year: 2026, month: 11, day: 28)

    /// A gap of the idle threshold or more is a pickup; a shorter one between two apps a switch;
    /// the same app again after a short gap is neither.
    func testPickupsAtTheIdleThresholdAndSwitchesBelowIt() {
        let report = report([
            use("firefox", "2026-11-28 09:00", minutes: 10),   // first: a pickup
            use("xterm", "2026-11-28 09:10", minutes: 5),      // at once: a switch
            use("xterm", "2026-11-28 09:17", minutes: 5),      // 2 min later, same app: neither
            use("firefox", "2026-11-28 09:24", minutes: 5),    // 2 min later, another app: a switch
            use("firefox", "2026-11-28 09:32", minutes: 5),    // exactly 3 min later: a pickup
            use("xterm", "2026-11-28 09:39:59", minutes: 1),   // 2 min 59 s: a switch
        ], from: day, to: day)
        XCTAssertEqual(report.pickups, 2)
        XCTAssertEqual(report.switches, 3)
        XCTAssertEqual(report.days.map(\.pickups), [2])
    }

    /// The first interval is a pickup only when the last one before the period ended long enough before.
    func testTheFirstIntervalAfterUseJustBeforeThePeriodIsNoPickup() {
        let first = use("firefox", "2026-11-28 04:01", minutes: 10)
        XCTAssertEqual(report([first], lastEndBefore: zone.at("2026-11-28 03:59"), from: day, to: day).pickups, 0)
        XCTAssertEqual(report([first], lastEndBefore: zone.at("2026-11-28 03:58"), from: day, to: day).pickups, 1)
    }

    /// An interval across the day start is split between the days; its pickup counts for the day it began.
    func testAnIntervalAcrossTheDayStartIsSplit() {
        let report = report([use("xterm", "2026-11-28 03:30", minutes: 60, mode: .sleep)],
                            from: CivilDate(year: 2026, month: 11, day: 27), to: day)
        XCTAssertEqual(report.days.map(\.seconds), [1800, 1800])
        XCTAssertEqual(report.days.map(\.pickups), [1, 0])
        XCTAssertEqual(report.modes.map(\.name), ["sleep"])
        XCTAssertEqual(report.groups.first?.days, ["2026-11-27": 1800, "2026-11-28": 1800])
        XCTAssertEqual(report.dailyAverageSeconds, 1800)
    }
}
