import FoundationEssentials

/// The config file's mode settings: `[schedule]`, `[calendars]` and `[modes]`.
///
///     [schedule]
///     # one key per entry: the id `schedule rm` takes
///     productivity-1 = productivity 09:00 3h mon-fri
///     social-1 = social 2026-12-01 18:00 2h
///
///     [calendars]
///     paths = /home/me/.calendars/work;/home/me/plans.ics
///
///     [modes]
///     enabled = standard;productivity;social;wind-down;sleep;wake-up;cheat-day
///     sleep = off                   # or one key per mode
///     bedtime = 23:30               # pins it (else learned from activity)
///     wake-time = 07:00
///     default-bedtime = 23:00       # until three nights are known
///     default-wake-time = 07:00
///     wind-down-before = 1h
///     sleep-after-wind-down = 4h
///     wake-up-before = 1h
///     wake-up-after = 2h
///     stay-up-for = 1h
///     break-every = 60m
///     break-length = 5m
///     breaks = on
///     productivity-grayscale = on   # off keeps Productivity in colour
public struct ModeSettings: Equatable, Sendable {
    public var schedule: [ScheduleEntry] = []
    public var calendarPaths: [String] = []
    /// Standard is always enabled, whatever the file says.
    public var enabledModes = Set(Mode.allCases)
    public var automatic = AutomaticModeSettings()
    public var breaks = ProductivityBreaks()
    /// Bedtime and wake time until enough nights are known.
    public var defaultSleepTimes = SleepTimes.defaults
    public var pinnedBedtime: WallTime?
    public var pinnedWakeTime: WallTime?
    /// What a mode's way through grants (`productivity-bypass = 3m`), where it differs from DESIGN.md's defaults.
    public var bypassGrants: [Mode: TimeInterval] = [:]
    /// Whether Productivity grays the screen (its display filter).
    public var productivityGrayscale = true

    public init() {}

    /// The learner these settings configure.
    public var bedtimeLearner: BedtimeLearner {
        BedtimeLearner(defaults: defaultSleepTimes, pinnedBedtime: pinnedBedtime, pinnedWakeTime: pinnedWakeTime)
    }

    public static let sections = [ModeConfigKey.schedule, ModeConfigKey.calendars, ModeConfigKey.modes]
}

/// Sections and keys of the mode settings.
public enum ModeConfigKey {
    public static let schedule = "schedule"
    public static let calendars = "calendars"
    public static let modes = "modes"

    public static let paths = "paths"
    public static let enabled = "enabled"
    public static let bedtime = "bedtime"
    public static let wakeTime = "wake-time"
    public static let defaultBedtime = "default-bedtime"
    public static let defaultWakeTime = "default-wake-time"
    public static let windDownBefore = "wind-down-before"
    public static let sleepAfterWindDown = "sleep-after-wind-down"
    public static let wakeUpBefore = "wake-up-before"
    public static let wakeUpAfter = "wake-up-after"
    public static let stayUpFor = "stay-up-for"
    public static let breakEvery = "break-every"
    public static let breakLength = "break-length"
    public static let breaks = "breaks"
    public static let automatic = "automatic"
    public static let productivityGrayscale = "productivity-grayscale"
    /// `<mode>-bypass = DURATION`.
    public static let bypassSuffix = "-bypass"

    static let modeKeys = [enabled, automatic, bedtime, wakeTime, defaultBedtime, defaultWakeTime, windDownBefore, sleepAfterWindDown,
                           wakeUpBefore, wakeUpAfter, stayUpFor, breakEvery, breakLength, breaks, productivityGrayscale]
}

extension ModeSettings {
    /// Reads the mode sections of a keyfile; every problem names its line.
    public init(_ file: KeyFile, path: String) throws {
        self.init()
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(path: path, line: line, message: message) }
        func duration(_ value: String, _ line: Int, _ key: String,
                      _ bounds: ClosedRange<TimeInterval> = DurationBounds.sleepOffset) throws -> TimeInterval {
            do { return try DurationBounds.parse(value, for: key, within: bounds) } catch { throw fail(line, error.message) }
        }
        func clock(_ value: String, _ line: Int) throws -> WallTime {
            guard let time = WhenText.parseWallTime(value) else { throw fail(line, "`\(value)` is not a time of day (use HH:MM)") }
            return time
        }
        func onOff(_ value: String, _ line: Int) throws -> Bool {
            guard let on = KeyFileSwitch.parse(value) else { throw fail(line, "`\(value)` is neither on nor off") }
            return on
        }

        for (id, value, line) in file.entries(in: ModeConfigKey.schedule) {
            do { schedule.append(try ScheduleEntry(configValue: value, id: id)) } catch { throw fail(line, error.message) }
        }
        for (key, value, line) in file.entries(in: ModeConfigKey.calendars) {
            guard key == ModeConfigKey.paths else { throw fail(line, "unknown key `\(key)` in [calendars] (known: paths)") }
            calendarPaths = KeyFileList.split(value)
        }
        for (key, value, line) in file.entries(in: ModeConfigKey.modes) {
            switch key {
            case ModeConfigKey.enabled:
                var modes: Set<Mode> = [.standard]
                for name in KeyFileList.split(value) {
                    guard let mode = Mode(name: name) else { throw fail(line, "`\(name)` is not a mode") }
                    modes.insert(mode)
                }
                enabledModes = modes
            case ModeConfigKey.bedtime: pinnedBedtime = try clock(value, line)
            case ModeConfigKey.wakeTime: pinnedWakeTime = try clock(value, line)
            case ModeConfigKey.defaultBedtime: defaultSleepTimes.bedtime = try clock(value, line)
            case ModeConfigKey.defaultWakeTime: defaultSleepTimes.wakeTime = try clock(value, line)
            case ModeConfigKey.windDownBefore: automatic.windDownBeforeBedtime = try duration(value, line, key)
            case ModeConfigKey.sleepAfterWindDown: automatic.sleepAfterWindDown = try duration(value, line, key)
            case ModeConfigKey.wakeUpBefore: automatic.wakeUpBeforeWakeTime = try duration(value, line, key)
            case ModeConfigKey.wakeUpAfter: automatic.wakeUpAfterWakeTime = try duration(value, line, key)
            case ModeConfigKey.stayUpFor: automatic.stayUpPause = try duration(value, line, key)
            case ModeConfigKey.breakEvery: breaks.every = try duration(value, line, key, DurationBounds.breakEvery)
            case ModeConfigKey.breakLength: breaks.length = try duration(value, line, key, DurationBounds.breakLength)
            case ModeConfigKey.breaks: breaks.isEnabled = try onOff(value, line)
            case ModeConfigKey.automatic: automatic.isEnabled = try onOff(value, line)
            case ModeConfigKey.productivityGrayscale: productivityGrayscale = try onOff(value, line)
            case let key where key.hasSuffix(ModeConfigKey.bypassSuffix):
                guard let mode = Mode(name: String(key.dropLast(ModeConfigKey.bypassSuffix.count))), mode != .cheatDay else {
                    throw fail(line, "`\(key)`: a bypass is set per mode, e.g. productivity-bypass = 3m")
                }
                bypassGrants[mode] = try duration(value, line, key, DurationBounds.bypass)
            default:
                // `productivity = off`: one key per mode.
                guard let mode = Mode(name: key) else {
                    let known = (ModeConfigKey.modeKeys + Mode.allCases.map(\.rawValue)).joined(separator: ", ")
                    throw fail(line, "unknown key `\(key)` in [modes] (known: \(known))")
                }
                guard mode != .standard else { throw fail(line, "Standard cannot be turned off: it is what holds when no other mode does") }
                if try onOff(value, line) { enabledModes.insert(mode) } else { enabledModes.remove(mode) }
            }
        }
    }
}

extension ScheduleEntry {
    /// Reads a `[schedule]` value: `MODE HH:MM DURATION DAYS` (weekly; no DAYS means daily) or
    /// `MODE YYYY-MM-DD HH:MM DURATION` (once).
    public init(configValue: String, id: String) throws(ScheduleParseError) {
        var words = configValue.split(separator: " ").map(String.init)
        let shape = "write `MODE HH:MM DURATION DAYS` (productivity 09:00 3h mon-fri) or `MODE YYYY-MM-DD HH:MM DURATION`"
        guard words.count >= 3 else { throw ScheduleParseError("`\(configValue)` is not a schedule entry; \(shape)") }
        let modeText = words.removeFirst()
        guard let mode = Mode(name: modeText) else {
            throw ScheduleParseError("`\(modeText)` is not a mode; choose one of \(Mode.switchable.map(\.rawValue).joined(separator: ", "))")
        }
        guard mode != .cheatDay else { throw ScheduleParseError("a Cheat Day is booked with `screentime cheat-day book`, not scheduled") }
        var date: CivilDate?
        if words[0].contains("-") {
            guard let day = WhenText.parseLocalDate(words.removeFirst()) else { throw ScheduleParseError("`\(configValue)`: bad date; \(shape)") }
            date = day
        }
        guard words.count >= 2, let start = WhenText.parseWallTime(words.removeFirst()) else {
            throw ScheduleParseError("`\(configValue)`: bad time; \(shape)")
        }
        let durationText = words.removeFirst()
        let duration: TimeInterval
        do { duration = try DurationText.parse(durationText) } catch { throw ScheduleParseError("\(error)") }
        guard duration > 0, duration <= 7 * 86_400 else { throw ScheduleParseError("`\(durationText)`: a scheduled mode lasts from 1s to 7 days") }
        let repetition: Repetition
        if let date {
            guard words.isEmpty else { throw ScheduleParseError("a dated entry happens once; remove `\(words.joined(separator: " "))`") }
            repetition = .once(date)
        } else {
            repetition = .weekly(words.isEmpty ? Set(Weekday.allCases) : try DayListText.parse(words.joined(separator: " ")))
        }
        self.init(id: id, mode: mode, start: start, duration: duration, repetition: repetition)
    }

    /// The `[schedule]` value `init(configValue:id:)` reads back.
    public var configValue: String {
        let length = DurationText.format(duration)
        switch repetition {
        case .weekly(let days): return "\(mode.rawValue) \(start) \(length) \(DayListText.format(days))"
        case .once(let date): return "\(mode.rawValue) \(date) \(start) \(length)"
        }
    }
}
