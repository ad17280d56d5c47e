import FoundationEssentials
import ScreenTimeCore
import XCTest

final class StatusBarLineTests: XCTestCase {
    let zone = FixedOffsetZone(seconds: 3600)
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600) // 08:00 local
    var tenPast: Date { morning.addingTimeInterval(600) }

    /// XTerm focused and counting (default limit 1 h), firefox at its 45 min limit, keepassxc important.
    func status(focus: AppInfo = AppInfo(id: "xterm", name: "XTerm")) -> StatusSnapshot {
        var settings = Settings()
        settings.limits["firefox"] = 45 * 60
        settings.important = ["keepassxc"]
        var engine = Engine(settings: settings, zone: zone, now: morning,
                            usageToday: ["firefox": 45 * 60, "keepassxc": 300], grantsToday: [:])
        _ = engine.handle(.focus(FocusedApp(app: focus, window: WindowID(1), title: "")), at: morning)
        return engine.status(at: tenPast, zone: zone)
    }

    func testCountingAppShowsTheClockTimeOfItsLimitAndItsShareOfIt() {
        let line = StatusBarLine(status(), now: tenPast, zone: zone)
        XCTAssertEqual(line.text, "Standard · XTerm: limit at 09:00", "50 min left at 08:10")
        XCTAssertEqual(line.shortText, "Standard")
        XCTAssertEqual(line.classes, ["standard"])
        XCTAssertEqual(line.percentage, 16, "10 of the focused app's 60 min, not firefox's full 45")
        XCTAssertEqual(line.iconName, "screentime-standard")
        XCTAssertEqual(line.colour, "#8fb8e8")
        XCTAssertEqual(line.tooltip, """
            Standard mode: always on when no other mode is active
            Today as of 08:10: 1 h of app time
            firefox: 45 min of 45 min
            XTerm: 10 min of 1 h
            keepassxc: 5 min
            """)
    }

    func testTheSameLineHoldsLaterWhileTheAppCounts() {
        var later = status()
        let apps = later.apps.map { app -> StatusSnapshot.App in
            var app = app
            if app.id == "xterm" { app.usedSeconds += 900; app.remainingSeconds = app.remainingSeconds.map { $0 - 900 } }
            return app
        }
        later.apps = apps
        XCTAssertEqual(StatusBarLine(later, now: tenPast.addingTimeInterval(900), zone: zone).text, "Standard · XTerm: limit at 09:00")
    }

    func testAppAtItsLimitIsOverLimitAtAHundredPercent() {
        let line = StatusBarLine(status(focus: AppInfo(id: "firefox", name: "Firefox")), now: tenPast, zone: zone)
        XCTAssertEqual(line.text, "Standard · Firefox: limit reached")
        XCTAssertEqual(line.classes, ["standard", "over-limit"])
        XCTAssertEqual(line.percentage, 100)
    }

    func testWithoutALimitedFocusTheAppNearestItsLimitGivesThePercentage() {
        var snapshot = status(focus: AppInfo(id: "keepassxc", name: "KeePassXC"))
        XCTAssertEqual(StatusBarLine(snapshot, now: tenPast, zone: zone).text, "Standard", "an important app has no limit to show")
        XCTAssertEqual(StatusBarLine(snapshot, now: tenPast, zone: zone).percentage, 100, "firefox, used up")
        XCTAssertEqual(StatusBarLine(snapshot, now: tenPast, zone: zone).classes, ["standard", "over-limit"])
        snapshot.apps.removeAll { $0.id == "firefox" }
        XCTAssertEqual(StatusBarLine(snapshot, now: tenPast, zone: zone).percentage, 0)
    }

    func testIdleAppShowsTimeLeftAndBreakShowsItsEnd() {
        var snapshot = status()
        snapshot.active = false
        if let index = snapshot.apps.firstIndex(where: { $0.id == "xterm" }) { snapshot.apps[index].state = "ok" }
        var line = StatusBarLine(snapshot, now: tenPast, zone: zone)
        XCTAssertEqual(line.text, "Standard · XTerm: 50 min left")
        XCTAssertEqual(line.classes, ["standard", "idle"])

        snapshot.mode = "productivity"
        snapshot.modeName = "Productivity"
        snapshot.breakSecondsLeft = 300
        line = StatusBarLine(snapshot, now: tenPast, zone: zone)
        XCTAssertEqual(line.text, "Productivity · break until 08:15")
        XCTAssertEqual(line.classes, ["productivity", "break", "idle"])
        XCTAssertEqual(line.iconName, "screentime-productivity")
    }

    func testNotRunningSaysSoPlainly() {
        XCTAssertEqual(StatusBarLine.notRunning.text, "Screen Time off")
        XCTAssertEqual(StatusBarLine.notRunning.classes, ["not-running"])
        XCTAssertTrue(StatusBarLine.notRunning.tooltip.contains("screentime agent"))
    }
}
