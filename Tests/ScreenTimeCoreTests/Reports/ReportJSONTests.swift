import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

final class ReportJSONTests: XCTestCase {
    /// The hand-written JSON is byte for byte what JSONEncoder writes, on a report with every part
    /// filled, names that need escaping, fractions, tiny and huge numbers, an event without a mode
    /// and empty lists and maps.
    func testTheJSONIsWhatTheEncoderWrites() throws {
        let zone = CentralEuropeanZone()
        let first = CivilDate(year: 2026, month: 3, day: 28), last = CivilDate(year: 2026, month: 3, day: 30)
        let start = zone.at("2026-03-28 09:00")
        let intervals: [UsageReport.Interval] = [
            .init(app: "xterm", start: start, end: start.addingTimeInterval(600.25)),
            .init(app: "org.example.Odd", mode: "focus", start: start.addingTimeInterval(700), end: start.addingTimeInterval(700.000001)),
            .init(app: "firefox", mode: "social", start: start.addingTimeInterval(86_400), end: start.addingTimeInterval(86_400 + 7_200)),
        ]
        var report = UsageReport(
            title: "Tricky \"quotes\" / slashes \\ tabs\t and \u{1} control, émoji 👀", range: ReportRange(from: first, to: last, boundary: DayBoundary(), zone: zone),
            history: .init(intervals: intervals, lastEndBefore: nil), previous: .init(intervals: [], lastEndBefore: nil),
            bypasses: [.init(app: "firefox", mode: "social", at: start.addingTimeInterval(90_000), granted: 900)],
            limitHits: [(AppID("firefox"), start.addingTimeInterval(93_600), 3_600.5)],
            names: { $0 == "org.example.Odd" ? "Odd \u{7f}\n\r\u{8}\u{c} name" : $0.rawValue }, group: { $0 == "xterm" ? "productivity" : "other/group" },
            idleThreshold: 180, boundary: DayBoundary(), zone: zone)
        report.dailyAverageSeconds = 1e-7
        report.totalSeconds = 1e300
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        XCTAssertEqual(ReportFormat.json(report), String(decoding: try encoder.encode(report), as: UTF8.self))
        XCTAssertFalse(report.bypasses.isEmpty || report.limitsReached.isEmpty || report.modes.count < 3)

        let empty = UsageReport(title: "", range: ReportRange(from: first, to: first, boundary: DayBoundary(), zone: zone),
                                history: .init(intervals: [], lastEndBefore: nil), previous: .init(intervals: [], lastEndBefore: nil),
                                bypasses: [], limitHits: [], names: { $0.rawValue }, group: { _ in "" }, idleThreshold: 180,
                                boundary: DayBoundary(), zone: zone)
        XCTAssertEqual(ReportFormat.json(empty), String(decoding: try encoder.encode(empty), as: UTF8.self))
    }
}
