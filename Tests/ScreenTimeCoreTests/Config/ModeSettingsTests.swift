import ScreenTimeCore
import XCTest

final class ModeSettingsTests: XCTestCase {
    func settings(_ text: String) throws -> ModeSettings {
        try Settings(KeyFile(parsing: text), path: "config").modes
    }

    func assertError(_ text: String, line: Int, contains fragment: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try settings(text), file: file, line: at) { error in
            guard let error = error as? ConfigError else { return XCTFail("\(error)", file: file, line: at) }
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: at)
            XCTAssertTrue(error.description.hasPrefix("config:\(line): "), error.description, file: file, line: at)
            XCTAssertTrue(error.message.contains(fragment), error.message, file: file, line: at)
        }
    }

    func testDefaultsWithoutTheSections() throws {
        let modes = try settings("[general]\n")
        XCTAssertEqual(modes, ModeSettings())
        XCTAssertEqual(modes.enabledModes, Set(Mode.allCases))
        XCTAssertEqual(modes.breaks.every, 3600)
        XCTAssertEqual(modes.breaks.length, 300)
    }

    func testReadsScheduleCalendarsAndModes() throws {
        let modes = try settings("""
            [schedule]
            # work
            productivity-1 = productivity 09:00 3h mon-fri
            social-1 = social 2026-12-01 18:00 2h
            reading = wind-down 21:30 90m
            [calendars]
            paths = /home/me/work.ics; /home/me/cal
            [modes]
            sleep = off
            bedtime = 23:30
            wake-time = 06:45
            default-bedtime = 22:00
            wind-down-before = 2h
            stay-up-for = 30m
            break-every = 25m
            break-length = 10s
            """)
        XCTAssertEqual(modes.schedule, [
            ScheduleEntry(id: "productivity-1", mode: .productivity, start: WallTime(hour: 9, minute: 0), duration: 3 * 3600,
                          repetition: .weekly([.monday, .tuesday, .wednesday, .thursday, .friday])),
            ScheduleEntry(id: "social-1", mode: .social, start: WallTime(hour: 18, minute: 0), duration: 7200,
                          repetition: .once(CivilDate(year: 2026, month: 12, day: 1))),
            ScheduleEntry(id: "reading", mode: .windDown, start: WallTime(hour: 21, minute: 30), duration: 5400,
                          repetition: .weekly(Set(Weekday.allCases))),
        ])
        XCTAssertEqual(modes.calendarPaths, ["/home/me/work.ics", "/home/me/cal"])
        XCTAssertFalse(modes.enabledModes.contains(.sleep))
        XCTAssertTrue(modes.enabledModes.contains(.windDown))
        XCTAssertEqual(modes.pinnedBedtime, WallTime(hour: 23, minute: 30))
        XCTAssertEqual(modes.pinnedWakeTime, WallTime(hour: 6, minute: 45))
        XCTAssertEqual(modes.defaultSleepTimes.bedtime, WallTime(hour: 22, minute: 0))
        XCTAssertEqual(modes.automatic.windDownBeforeBedtime, 7200)
        XCTAssertEqual(modes.automatic.stayUpPause, 1800)
        XCTAssertEqual(modes.breaks.every, 1500)
        XCTAssertEqual(modes.breaks.length, 10, "test-friendly durations are allowed")
        XCTAssertEqual(modes.bedtimeLearner.pinnedBedtime, WallTime(hour: 23, minute: 30))
    }

    func testEnabledListKeepsStandard() throws {
        let modes = try settings("[modes]\nenabled = productivity; cheat-day\n")
        XCTAssertEqual(modes.enabledModes, [.standard, .productivity, .cheatDay])
    }

    func testScheduleValuesRoundTrip() throws {
        for value in ["productivity 09:00 3h mon-fri", "social 2026-12-01 18:00 2h", "wind-down 21:30 1h30m daily",
                      "sleep 23:00 8h sat-sun"] {
            XCTAssertEqual(try ScheduleEntry(configValue: value, id: "x").configValue, value)
        }
    }

    func testErrorsNameTheLine() {
        assertError("[schedule]\na = productivity 09:00 3h mon-fri\nb = party 09:00 1h\n", line: 3, contains: "`party` is not a mode")
        assertError("[schedule]\n\nb = productivity 9h\n", line: 3, contains: "not a schedule entry")
        assertError("[schedule]\nb = productivity 25:00 1h\n", line: 2, contains: "bad time")
        assertError("[schedule]\nb = productivity 09:00 1x\n", line: 2, contains: "not a duration")
        assertError("[schedule]\nb = productivity 09:00 1h someday\n", line: 2, contains: "not a list of days")
        assertError("[schedule]\nb = cheat-day 2026-12-01 09:00 1h\n", line: 2, contains: "cheat-day book")
        assertError("[schedule]\nb = social 2026-12-01 09:00 1h mon\n", line: 2, contains: "happens once")
        assertError("[calendars]\nfile = x.ics\n", line: 2, contains: "unknown key `file`")
        assertError("[modes]\nbedtime = late\n", line: 2, contains: "not a time of day")
        assertError("[modes]\n# c\nsleep = maybe\n", line: 3, contains: "neither on nor off")
        assertError("[modes]\nstandard = off\n", line: 2, contains: "Standard cannot be turned off")
        assertError("[modes]\nbreak-every = 0s\n", line: 2, contains: "break-every must be from 1m to 24h")
        assertError("[modes]\nenabled = productivity;partying\n", line: 2, contains: "`partying` is not a mode")
        assertError("[modes]\nbedtimes = 23:00\n", line: 2, contains: "unknown key `bedtimes` in [modes]")
        assertError("[general]\n[mode]\n", line: 2, contains: "unknown section [mode]")
    }

    func testProductivityGrayscaleCanBeTurnedOff() throws {
        let off = try Settings(KeyFile(parsing: "[modes]\nproductivity-grayscale = off\n"), path: "config")
        XCTAssertEqual(off.profile(for: .productivity).displayFilter, .none)
        XCTAssertEqual(off.profile(for: .windDown).displayFilter, .warmGrayscale)
        XCTAssertEqual(Settings().profile(for: .productivity).displayFilter, .grayscale)
        XCTAssertEqual(Settings().profile(for: .productivity, onBreak: true).displayFilter, .none)
        XCTAssertThrowsError(try Settings(KeyFile(parsing: "[modes]\nproductivity-grayscale = grey\n"), path: "config")) { error in
            XCTAssertEqual((error as? ConfigError)?.description, "config:2: `grey` is neither on nor off")
        }
    }
}

final class AutomaticModesSwitchTests: XCTestCase {
    func testAutomaticOffKeepsTheEveningStandardButManualSwitchesWork() throws {
        let settings = try ModeSettings(KeyFile(parsing: "[modes]\nautomatic = off\n"), path: "config")
        XCTAssertFalse(settings.automatic.isEnabled)
        let zone = FixedOffsetZone(seconds: 0)
        let evening = Date(timeIntervalSince1970: 1_795_910_400 + 22.5 * 3600) // 22:30
        var inputs = ModeInputs()
        inputs.automatic = settings.automatic
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: evening).mode, .standard)
        inputs.manual = ManualSwitch(mode: .windDown, since: evening)
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: evening).mode, .windDown)
        inputs = ModeInputs()
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: evening).mode, .windDown, "on by default")
    }
}
