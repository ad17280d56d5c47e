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
                       "/home/u/.config/screentime/config:3: the limit of firefox: `45x` is not a duration (use 1h, 45m, 1h30m, 90s)")
        XCTAssertEqual(error("[general]\nday-start = 25:00\n")?.line, 2)
        XCTAssertEqual(error("[general]\ndaystart = 05:00\n")?.line, 2)
        XCTAssertEqual(error("[limitz]\n")?.line, 1)
    }
}

final class SettingsBoundsTests: XCTestCase {
    func error(_ text: String) -> String {
        do {
            _ = try Settings(KeyFile(parsing: text), path: "config")
            return "accepted"
        } catch { return "\(error)" }
    }

    /// Every duration key names itself, its line and its bounds; 18 digits never get through.
    func testEveryDurationKeyIsBounded() {
        let huge = "999999999999999999h"
        let keys = [("general", "idle-after"), ("general", "countdown"), ("general", "continue-for"),
                    ("limits", "default"), ("limits", "firefox"),
                    ("modes", "wind-down-before"), ("modes", "sleep-after-wind-down"), ("modes", "wake-up-before"),
                    ("modes", "wake-up-after"), ("modes", "stay-up-for"), ("modes", "break-every"),
                    ("modes", "break-length"), ("modes", "productivity-bypass")]
        for (section, key) in keys {
            for value in [huge, "25h"] {
                let message = error("# a comment\n[\(section)]\n\(key) = \(value)\n")
                XCTAssertTrue(message.hasPrefix("config:3: "), message)
                XCTAssertTrue(message.contains(key == "firefox" ? "firefox" : key), message)
                if value == "25h" { XCTAssertTrue(message.contains("to 24h"), message) }
            }
        }
        XCTAssertTrue(error("[modes]\nbreak-every = 10s\n").contains("break-every must be from 1m to 24h"))
        XCTAssertEqual(error("[general]\nidle-after = 24h\n[modes]\nwind-down-before = 0s\n"), "accepted")
    }
}

final class DurationBoundsTests: XCTestCase {
    func testMessagesNameTheValueEvenWhenHuge() {
        XCTAssertThrowsError(try DurationBounds.check(TimeInterval(UInt64.max), for: "argument 2", within: DurationBounds.limit)) { error in
            XCTAssertEqual("\(error)", "argument 2 must be from 0s to 24h, not more than a year (1.8446744073709552e+19 s)")
        }
        XCTAssertThrowsError(try DurationBounds.check(.nan, for: "x", within: DurationBounds.limit))
        XCTAssertNoThrow(try DurationBounds.check(86_400, for: "x", within: DurationBounds.limit))
    }
}
