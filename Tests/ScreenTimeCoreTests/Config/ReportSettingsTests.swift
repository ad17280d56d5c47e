import ScreenTimeCore
import XCTest

final class ReportSettingsTests: XCTestCase {
    func testDefaultsAreOnAndMonday() throws {
        let settings = try Settings(KeyFile(parsing: ""), path: "config")
        XCTAssertEqual(settings.report, ReportSettings())
        XCTAssertTrue(settings.report.weeklySummary)
        XCTAssertEqual(settings.report.weekStart, .monday)
    }

    func testReadsTheSection() throws {
        let settings = try Settings(KeyFile(parsing: "[report]\nweekly-summary = off\nweek-start = Sunday\n"), path: "config")
        XCTAssertFalse(settings.report.weeklySummary)
        XCTAssertEqual(settings.report.weekStart, .sunday)
        XCTAssertEqual(try Settings(KeyFile(parsing: "[report]\nweek-start = sat\n"), path: "config").report.weekStart, .saturday)
    }

    func testBadValuesNameTheLine() {
        func message(_ text: String) -> String? {
            do { _ = try Settings(KeyFile(parsing: text), path: "config"); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(message("[report]\n\nweekly-summary = maybe\n"), "config:3: `maybe` is neither on nor off")
        XCTAssertEqual(message("[report]\nweek-start = someday\n"), "config:2: `someday` is not a day of the week (monday … sunday)")
        XCTAssertEqual(message("[report]\nweekly = on\n"), "config:2: unknown key `weekly` in [report] (known: weekly-summary, week-start)")
    }
}
