import Agent
import Foundation
import ScreenTimeCore
@testable import UsageStore
import XCTest

final class ModeInputsSourceTests: XCTestCase {
    let utc = FixedOffsetZone(seconds: 0)
    /// 2026-11-30 12:00 UTC, a Monday.
    let now = Date(timeIntervalSince1970: 1_796_040_000)

    func temporaryStore() throws -> UsageDatabase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-inputs-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return try UsageDatabase(path: directory.appendingPathComponent("s.db").path)
    }

    func testInputsCarryEverySource() throws {
        var settings = try Settings(KeyFile(parsing: """
            [schedule]
            p = productivity 09:00 3h mon-fri
            [modes]
            social = off
            break-every = 25m
            """), path: "config").modes
        settings.pinnedWakeTime = WallTime(hour: 6, minute: 0)
        let calendar = [CalendarInterval(mode: .social, start: now, end: now.addingTimeInterval(3600), summary: "Social", source: "a.ics")]
        let state = ModeStateSnapshot(manual: ManualSwitch(mode: .productivity, since: now),
                                      cheatDays: [StoredCheatDay(id: "c", start: now.addingTimeInterval(86_400), bookedAt: now, firstSeen: now)],
                                      sleepActions: SleepActions(stayUpAt: now), requestedBreaks: [now])
        // Three nights asleep from 00:30 to 07:30 (between four days of activity).
        let activity = (1...4).map { night -> Range<Date> in
            let wake = now.addingTimeInterval(-Double(night) * 86_400 - 4.5 * 3600)  // 07:30
            return wake..<wake.addingTimeInterval(17 * 3600)                           // to 00:30
        }
        let inputs = ModeInputsSource.inputs(settings: settings, state: state, calendar: calendar, activity: activity, now: now, zone: utc)
        XCTAssertEqual(inputs.schedule.map(\.id), ["p"])
        XCTAssertEqual(inputs.calendar, calendar)
        XCTAssertEqual(inputs.manual, state.manual)
        XCTAssertEqual(inputs.cheatDays.bookings.map(\.id), ["c"])
        XCTAssertEqual(inputs.sleepActions, SleepActions(stayUpAt: now))
        XCTAssertEqual(inputs.requestedBreaks, [now])
        XCTAssertEqual(inputs.breaks.every, 1500)
        XCTAssertFalse(inputs.enabledModes.contains(.social))
        XCTAssertEqual(inputs.sleepTimes.bedtime, WallTime(hour: 0, minute: 30), "learned from three nights")
        XCTAssertEqual(inputs.sleepTimes.bedtimeSource, .learned(nights: 3))
        XCTAssertEqual(inputs.sleepTimes.wakeTime, WallTime(hour: 6, minute: 0), "pinned wins")
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: utc).resolve(at: now).mode, .productivity)
    }

    /// The agent's booking rules against the real store: 11 h ahead is refused with CheatDayBook's
    /// message, 13 h ahead is accepted; a row added by hand does not start a Cheat Day.
    func testModeStateBookingAndHandEditedRows() throws {
        let store = try temporaryStore()
        let state = ModeState(store: store, zone: utc)
        let settings = ModeSettings()
        XCTAssertThrowsError(try state.bookCheatDay(start: now.addingTimeInterval(11 * 3600), settings: settings, now: now)) {
            XCTAssertEqual($0 as? ModeStateError, ModeStateError(kind: .notAllowed,
                message: "Cheat Day must be booked at least 12 hours ahead; the earliest start now is 2026-12-01 00:00."))
        }
        let booking = try state.bookCheatDay(start: now.addingTimeInterval(13 * 3600), settings: settings, now: now)
        XCTAssertEqual(booking.id, "2026-12-01")
        XCTAssertThrowsError(try state.bookCheatDay(start: now.addingTimeInterval(20 * 3600), settings: settings, now: now),
                             "overlaps the first")
        try state.cancelCheatDay(id: booking.id, now: now)
        XCTAssertThrowsError(try state.cancelCheatDay(id: booking.id, now: now)) {
            XCTAssertEqual(($0 as? ModeStateError)?.kind, .notFound)
        }
        XCTAssertEqual(try state.bookCheatDay(start: now.addingTimeInterval(13 * 3600), settings: settings, now: now).id, "2026-12-01-2")

        // Someone writes a booking starting in 2 hours, claiming it was made a week ago.
        let sneaky = now.addingTimeInterval(2 * 3600)
        try store.connection.exec("INSERT INTO cheat_days(id, start, booked_at) VALUES('sneaky', \(sneaky.timeIntervalSince1970), \(now.timeIntervalSince1970 - 7 * 86_400))")
        let inputs = try ModeInputsSource.load(store: store, settings: settings, calendar: [], now: now, zone: utc)
        XCTAssertEqual(inputs.cheatDays.bookings.first { $0.id == "sneaky" }?.bookedAt, now, "counted from the agent's first sight")
        XCTAssertNotEqual(ModeResolver(inputs: inputs, zone: utc).resolve(at: sneaky.addingTimeInterval(60)).mode, .cheatDay)
    }

    func testSetModeChecksNamesAndEnabledModes() throws {
        let store = try temporaryStore()
        let state = ModeState(store: store, zone: utc)
        var settings = ModeSettings()
        try state.setMode("Wind Down", settings: settings, now: now)
        XCTAssertEqual(try store.manualSwitch(), ManualSwitch(mode: .windDown, since: now))
        try state.setMode("auto", settings: settings, now: now)
        XCTAssertNil(try store.manualSwitch())
        XCTAssertThrowsError(try state.setMode("party", settings: settings, now: now)) {
            XCTAssertEqual(($0 as? ModeStateError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try state.setMode("cheat-day", settings: settings, now: now)) {
            XCTAssertEqual(($0 as? ModeStateError)?.kind, .notAllowed)
        }
        settings.enabledModes.remove(.social)
        XCTAssertThrowsError(try state.setMode("social", settings: settings, now: now)) {
            XCTAssertEqual(($0 as? ModeStateError)?.message, "Social is turned off in the config ([modes]).")
        }
    }
}
