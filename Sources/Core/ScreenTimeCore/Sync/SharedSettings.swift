import FoundationEssentials

/// A config key the joined computers share: the settings that make the budget (limits, groups,
/// important and essential apps, title and site rules, schedules, the modes' settings, the day's
/// start, the countdown, the continue's length). What is local stays local: idle detection,
/// privacy, calendar paths (files of this computer), the display.
public struct SharedSettingKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: String
    public var key: String

    public init(section: String, key: String) {
        self.section = section
        self.key = key
    }

    public static func < (a: Self, b: Self) -> Bool { (a.section, a.key) < (b.section, b.key) }
    public var description: String { "[\(section)] \(key)" }

    static let sharedSections: Set<String> = [ConfigKey.limits, ConfigKey.exemptions, ConfigKey.groups, ConfigKey.rules,
                                              ModeConfigKey.schedule, ModeConfigKey.modes]
    static let sharedGeneralKeys: Set<String> = [ConfigKey.dayStart, ConfigKey.countdown, ConfigKey.continueFor]

    /// Cheat Day bookings, kept in the store, not the config: the key is the booking's id, the
    /// value `START BOOKED` (seconds since 1970), none once cancelled.
    public static let cheatDaySection = "cheat-day"

    public var isShared: Bool {
        Self.sharedSections.contains(section) || (section == ConfigKey.general && Self.sharedGeneralKeys.contains(key))
            || section == Self.cheatDaySection
    }

    public var isInConfig: Bool { isShared && section != Self.cheatDaySection }

    /// The shared keys a config file sets, with their values.
    public static func values(of file: KeyFile) -> [SharedSettingKey: String] {
        var values: [SharedSettingKey: String] = [:]
        for section in Set(file.sections) {
            for entry in file.entries(in: section) {
                let key = SharedSettingKey(section: section, key: entry.key)
                if key.isInConfig { values[key] = entry.value }
            }
        }
        return values
    }
}

/// A shared key's value as a computer last set it (nil: removed), stamped with when (a clock that
/// never goes back behind what it has seen, in milliseconds) and by which device. The later stamp
/// wins, and at equal stamps the greater device id: never which file arrived first.
public struct StampedSetting: Equatable, Sendable {
    public var stamp: Int64
    public var device: SyncDeviceID
    public var value: String?

    public init(stamp: Int64, device: SyncDeviceID, value: String?) {
        self.stamp = stamp
        self.device = device
        self.value = value
    }

    /// Whether this setting wins over `other`. The value decides last, between two that one id
    /// stamped alike (two computers with one id): a total order, so no merge depends on order.
    public func beats(_ other: StampedSetting) -> Bool {
        if (stamp, device) != (other.stamp, other.device) { return (stamp, device) > (other.stamp, other.device) }
        return (value == nil ? 0 : 1, value ?? "") > (other.value == nil ? 0 : 1, other.value ?? "")
    }
}

/// One computer's view of every shared key: what it set itself and what it took from the others.
/// The views merge key by key, the winning stamp taking each: commutative, associative,
/// idempotent, so every computer that has read the same files holds the same settings.
public struct SettingsChanges: Equatable, Sendable {
    public var device: SyncDeviceID
    public var name: String
    public var settings: [SharedSettingKey: StampedSetting]

    public init(device: SyncDeviceID, name: String, settings: [SharedSettingKey: StampedSetting] = [:]) {
        self.device = device
        self.name = name
        self.settings = settings
    }

    /// The winning value of each key across `views`.
    public static func merged(_ views: [[SharedSettingKey: StampedSetting]]) -> [SharedSettingKey: StampedSetting] {
        var result: [SharedSettingKey: StampedSetting] = [:]
        for view in views {
            for (key, setting) in view where result[key].map({ setting.beats($0) }) ?? true { result[key] = setting }
        }
        return result
    }

    /// The latest stamp in `views`: a new change is stamped after it, however late this clock is.
    public static func latestStamp(_ views: [[SharedSettingKey: StampedSetting]]) -> Int64 {
        views.flatMap(\.values).map(\.stamp).max() ?? 0
    }

    public func encoded() -> String {
        var lines = ["screentime-settings\t1", "device\t\(device.rawValue)\t\(SyncText.escape(name))"]
        for key in settings.keys.sorted() {
            let setting = settings[key]!
            let head = "\(setting.stamp)\t\(setting.device.rawValue)\t\(SyncText.escape(key.section))\t\(SyncText.escape(key.key))"
            lines.append(setting.value.map { "set\t\(head)\t\(SyncText.escape($0))" } ?? "removed\t\(head)")
        }
        lines.append("end\t\(lines.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func parse(_ text: String) throws(SyncFileError) -> SettingsChanges {
        var device: SyncDeviceID?
        var name = ""
        var settings: [SharedSettingKey: StampedSetting] = [:]
        var ended = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if ended {
                if line.isEmpty { continue }
                throw SyncFileError(line: number, reason: "text after the end line")
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { SyncText.unescape(String($0)) }
            if number == 1 {
                guard fields.count == 2, fields[0] == "screentime-settings" else { throw SyncFileError(line: 1, reason: "not a screentime settings file") }
                guard Int(fields[1]).map({ $0 <= 1 }) ?? false else { throw SyncFileError(line: 1, reason: "written by a newer screentime") }
                continue
            }
            switch fields[0] {
            case "device":
                guard fields.count >= 3, let id = SyncDeviceID(fields[1]) else { throw SyncFileError(line: number, reason: "bad device line") }
                device = id
                name = fields[2]
            case "set", "removed":
                let isSet = fields[0] == "set"
                guard fields.count == (isSet ? 6 : 5), let stamp = Int64(fields[1]), stamp >= 0, let by = SyncDeviceID(fields[2]) else {
                    throw SyncFileError(line: number, reason: "bad \(fields[0]) line")
                }
                let key = SharedSettingKey(section: fields[3], key: fields[4])
                guard key.isShared else { continue }
                settings[key] = StampedSetting(stamp: stamp, device: by, value: isSet ? fields[5] : nil)
            case "end":
                guard fields.count == 2, Int(fields[1]) == number - 1 else { throw SyncFileError(line: number, reason: "lines missing before the end") }
                ended = true
            default:
                continue
            }
        }
        guard ended else { throw SyncFileError(line: lines.count, reason: "cut short: no end line") }
        guard let device else { throw SyncFileError(line: 1, reason: "no device line") }
        return SettingsChanges(device: device, name: name, settings: settings)
    }
}
