import Foundation
import ScreenTimeCore
import XCTest

final class StatusBarFormatTests: XCTestCase {
    let zone = FixedOffsetZone(seconds: 3600)
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 7 * 3600) // 08:00 local

    /// A window class is untrusted text: its app's name reaches the bar.
    func line(name: String) -> StatusBarLine {
        var settings = Settings()
        settings.defaultLimit = 3600
        var engine = Engine(settings: settings, zone: zone, now: morning)
        _ = engine.handle(.focus(FocusedApp(app: AppInfo(id: "odd", name: name), window: WindowID(1), title: "")), at: morning)
        return StatusBarLine(engine.status(at: morning.addingTimeInterval(900), zone: zone), now: morning.addingTimeInterval(900), zone: zone)
    }

    func testWaybarIsOneLineOfTheKeysAndTypesWaybarReads() throws {
        let output = StatusBarFormat.waybar(line(name: "Odd"))
        XCTAssertEqual(output, #"{"alt":"screentime-standard","class":["standard"],"percentage":25,"#
            + #""text":"Standard · Odd: limit at 09:00","tooltip":"Standard mode: always on when no other mode is active\nToday as of 08:15: 15 min of app time\nOdd: 15 min of 1 h"}"#)
        XCTAssertFalse(output.contains("\n"), "waybar reads the first line")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertTrue(object["text"] is String)
        XCTAssertTrue(object["tooltip"] is String)
        XCTAssertTrue(object["alt"] is String)
        XCTAssertEqual(object["class"] as? [String], ["standard"])
        XCTAssertEqual(object["percentage"] as? Int, 25)
        XCTAssertNotNil(output.range(of: #""percentage":[0-9]+[,}]"#, options: .regularExpression),
                        "written as an unsigned integer: waybar ignores any other number")
    }

    func testWaybarEscapesMarkupInNames() throws {
        let output = StatusBarFormat.waybar(line(name: "<b>Tom & Jerry</b>"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, "Standard · &lt;b&gt;Tom &amp; Jerry&lt;/b&gt;: limit at 09:00")
        XCTAssertFalse((object["tooltip"] as? String ?? "<").contains("<"))
    }

    func testI3blocksGivesFullShortAndColourLinesOrOneLineWhenFollowing() {
        XCTAssertEqual(StatusBarFormat.i3blocks(line(name: "Odd")), "Standard · Odd: limit at 09:00\nStandard\n#8fb8e8")
        XCTAssertEqual(StatusBarFormat.i3blocks(line(name: "Odd\nSecond"), following: true), "Standard · Odd Second: limit at 09:00",
                       "a newline in a name would start another update")
        XCTAssertEqual(StatusBarFormat.i3blocks(line(name: "%{A1:xterm:}x%{A}"), following: true),
                       "Standard · % {A1:xterm:}x% {A}: limit at 09:00", "no polybar action from a name")
        XCTAssertEqual(StatusBarFormat.i3blocks(.notRunning), "Screen Time off\noff\n#9e9e9e")
    }
}
