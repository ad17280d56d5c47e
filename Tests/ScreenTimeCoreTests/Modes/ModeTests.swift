import XCTest
import ScreenTimeCore

final class ModeTests: XCTestCase {
    func testNamesParseInEveryForm() {
        XCTAssertEqual(Mode(name: "wind-down"), .windDown)
        XCTAssertEqual(Mode(name: "Wind Down"), .windDown)
        XCTAssertEqual(Mode(name: "WAKE_UP"), .wakeUp)
        XCTAssertNil(Mode(name: "focus"))
        XCTAssertEqual(Mode.switchable.map(\.rawValue), ["standard", "productivity", "social", "wind-down", "sleep", "wake-up"])
    }

    func testProfilesFollowTheDesignTable() {
        XCTAssertEqual(ModeProfile.defaults(for: .productivity).displayFilter, .grayscale)
        XCTAssertEqual(ModeProfile.defaults(for: .productivity).bypassGrant, 180)
        XCTAssertEqual(ModeProfile.defaults(for: .standard).bypassGrant, 3600)
        XCTAssertEqual(ModeProfile.defaults(for: .windDown).displayFilter, .warmGrayscale)
        XCTAssertEqual(ModeProfile.defaults(for: .sleep).notifications, .silenced)
        XCTAssertEqual(ModeProfile.defaults(for: .social).notifications, .onlyCallsMessagesAndChosenApps)
        XCTAssertEqual(ModeProfile.defaults(for: .wakeUp).notifications, .heldAndSummarised)
        XCTAssertEqual(ModeProfile.defaults(for: .cheatDay).allowedApps, .all(limitsApply: false))
        XCTAssertNil(ModeProfile.defaults(for: .cheatDay).bypassGrant)
        XCTAssertEqual(ModeProfile.productivityBreak.displayFilter, .none)
        XCTAssertEqual(ModeProfile.productivityBreak.notifications, .normal)
        for mode in Mode.allCases {
            XCTAssertFalse(mode.summary.isEmpty)
            XCTAssertEqual(mode.iconName, "screentime-" + mode.rawValue)
        }
    }

    func testCalendarSummariesAndCategoriesNameModes() {
        XCTAssertEqual(CalendarInterval.namedMode(summary: "Productivity: quarterly report", categories: []), .productivity)
        XCTAssertEqual(CalendarInterval.namedMode(summary: "wind down", categories: []), .windDown)
        XCTAssertEqual(CalendarInterval.namedMode(summary: "Wake-up yoga", categories: []), .wakeUp)
        XCTAssertNil(CalendarInterval.namedMode(summary: "Sleepover at Sam's", categories: []))
        XCTAssertNil(CalendarInterval.namedMode(summary: "Dentist", categories: ["Health"]))
        XCTAssertEqual(CalendarInterval.namedMode(summary: "Dinner with Ana", categories: ["Personal", "Social"]), .social)
    }
}
