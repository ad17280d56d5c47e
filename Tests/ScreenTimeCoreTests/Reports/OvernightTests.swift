import ScreenTimeCore
import Harnesses
import XCTest

final class OvernightTests: XCTestCase {
    let zone = CentralEuropeanZone()
    var now: Date { zone.at("2026-11-30 07:30") }

    func change(_ mode: Mode, _ text: String) -> (mode: String, at: Date) { (mode.rawValue, zone.at(text)) }

    func testTheNightBeginsAtTheEveningsWindDown() {
        let changes = [change(.productivity, "2026-11-29 14:00"), change(.windDown, "2026-11-29 22:00"),
                       change(.sleep, "2026-11-29 23:00"), change(.wakeUp, "2026-11-30 07:00")]
        XCTAssertEqual(Overnight.start(changes: changes, before: now), zone.at("2026-11-29 22:00"))
        XCTAssertEqual(Overnight.start(changes: Array(changes.dropFirst(2)), before: now), zone.at("2026-11-29 23:00"))
        XCTAssertEqual(Overnight.start(changes: [changes[0], changes[3]], before: now), zone.at("2026-11-30 07:00"))
    }

    func testAnEarlierNightOrNoneFallsBackToTwelveHours() {
        // The night modes before a day mode belong to an earlier stretch.
        let changes = [change(.sleep, "2026-11-29 01:00"), change(.standard, "2026-11-29 08:00")]
        XCTAssertEqual(Overnight.start(changes: changes, before: now), zone.at("2026-11-29 19:30"))
        XCTAssertEqual(Overnight.start(changes: [change(.sleep, "2026-11-28 23:00")], before: now), zone.at("2026-11-29 19:30"))
        XCTAssertEqual(Overnight.start(changes: [], before: now), zone.at("2026-11-29 19:30"))
    }

    func testLinesMostFirst() {
        XCTAssertEqual(Overnight.lines(["signal-desktop": 3, "org.mozilla.Thunderbird": 1, "org.gnome.Calls": 3, "x": 0]) {
            ["signal-desktop": "Signal", "org.mozilla.Thunderbird": "Thunderbird"][$0] ?? $0
        }, ["3 from Signal", "3 from org.gnome.Calls", "1 from Thunderbird"])
    }
}
