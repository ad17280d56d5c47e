import ScreenTimeCore
import XCTest

final class SettingsTests: XCTestCase {
    func testTemplateGivesTheDefaults() throws {
        XCTAssertEqual(try Settings(KeyFile(parsing: Settings.template), path: "config"), Settings())
    }

    func testReadsLimitsExemptionsAndGeneral() throws {
        let settings = try Settings(KeyFile(parsing: """
            [general]
            day-start = 05:30
            idle-after = 2m
            countdown = 5m;1m
            continue-for = 15m
            [limits]
            default = 2h
            firefox = 45m
            [exemptions]
            important = keepassxc; thunderbird
            essential = gnome-calculator
            """), path: "config")
        XCTAssertEqual(settings.dayBoundary.startMinute, 5 * 60 + 30)
        XCTAssertEqual(settings.idleThreshold, 120)
        XCTAssertEqual(settings.countdownMarks, [300, 60])
        XCTAssertEqual(settings.continueGrant, 900)
        XCTAssertEqual(settings.limit(for: "firefox"), 45 * 60)
        XCTAssertEqual(settings.limit(for: "xterm"), 7200)
        XCTAssertNil(settings.limit(for: "thunderbird"))
        XCTAssertNil(settings.limit(for: "gnome-calculator"))
        XCTAssertNil(settings.limit(for: "screentime"))
        XCTAssertTrue(settings.isEssential("gnome-calculator"))
    }

    func testBadValuesNameFileAndLine() {
        func error(_ text: String) -> ConfigError? {
            do {
                _ = try Settings(KeyFile(parsing: text), path: "/home/u/.config/screentime/config")
                return nil
            } catch { return error as? ConfigError }
        }
        XCTAssertEqual(error("[limits]\n\nfirefox = 45x\n")?.description,
                       "/home/u/.config/screentime/config:3: `45x` is not a duration (use 1h, 45m, 1h30m, 90s)")
        XCTAssertEqual(error("[general]\nday-start = 25:00\n")?.line, 2)
        XCTAssertEqual(error("[general]\ndaystart = 05:00\n")?.line, 2)
        XCTAssertEqual(error("[limitz]\n")?.line, 1)
    }
}
