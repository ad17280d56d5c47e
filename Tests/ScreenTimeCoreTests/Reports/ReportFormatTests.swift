import ScreenTimeCore
import Harnesses
import XCTest

final class ReportFormatTests: XCTestCase {
    func report() -> UsageReport {
        let zone = CentralEuropeanZone()
        let day = CivilDate(year: 2026, month: 11, day: 28)
        let start = zone.at("2026-11-28 09:00")
        return UsageReport(title: "t", range: ReportRange(from: day, to: day, boundary: DayBoundary(), zone: zone),
                           history: .init(intervals: [.init(app: "xterm", start: start, end: start.addingTimeInterval(600))], lastEndBefore: nil),
                           previous: .init(intervals: [], lastEndBefore: nil), bypasses: [], limitHits: [],
                           names: { $0.rawValue }, group: { _ in "productivity" }, idleThreshold: 180, boundary: DayBoundary(), zone: zone)
    }

    /// Bars take the group's colour on a colour terminal, and no escape is written otherwise (NO_COLOR, a pipe).
    func testColourOnlyWhenTheStyleAllowsIt() {
        XCTAssertTrue(ReportFormat.text(report(), style: TerminalStyle(width: 80, colour: true)).contains("\u{1B}[34m█"))
        XCTAssertFalse(ReportFormat.text(report(), style: TerminalStyle(width: 80, colour: false)).contains("\u{1B}"))
    }

    /// A name with a comma or quote stays one CSV field.
    func testCSVQuotesFields() {
        var report = report()
        report.apps[0].name = "a, \"b\""
        XCTAssertTrue(ReportFormat.csv(report).contains("app,2026-11-28,,xterm,\"a, \"\"b\"\"\",,600,"))
    }

    /// In colour, the bars' codes are the only escape sequences: a name's own (a window title
    /// sequence, a clear-screen, a C1 CSI) shows as U+FFFD.
    func testANamesControlCharactersAreShownNotSentEvenInColour() {
        var report = report()
        report.apps[0].name = "esc\u{1B}]0;INJECTED\u{07}\u{9B}2J"
        let text = ReportFormat.text(report, style: TerminalStyle(width: 80, colour: true))
        XCTAssertTrue(text.contains("esc\u{FFFD}]0;INJECTED\u{FFFD}\u{FFFD}2J"), text)
        let escapes = text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" }
        XCTAssertEqual(escapes.count, text.components(separatedBy: "\u{1B}[").count - 1, "every control starts a colour code")
        XCTAssertEqual(text.components(separatedBy: "\u{1B}[0m").count - 1, 2, "two bars (the app and its group) in colour")
    }
}

