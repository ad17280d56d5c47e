import FoundationEssentials

/// What the user wants help with; each goal turns modes on (`SurveyAnswers.apply`).
public enum SurveyGoal: String, CaseIterable, Sendable {
    /// Productivity, with its breaks.
    case focus
    /// Wind Down, Sleep and Wake Up by the clock.
    case sleep
    /// Social, the time set aside for people.
    case lessSocialMedia = "social"

    public var label: String {
        switch self {
        case .focus: "focus"
        case .sleep: "sleep"
        case .lessSocialMedia: "less social media"
        }
    }
}

/// The answers of `screentime setup`: read from the config in force (so a rerun offers the current
/// answers), changed by the questions, then written back as edits of the user's file.
public struct SurveyAnswers: Equatable, Sendable {
    public var goals: Set<SurveyGoal>
    public var bedtime: WallTime
    public var wakeTime: WallTime
    /// Whether the times stay as given (`bedtime =`) or only hold until nights are learned.
    public var pinSleepTimes: Bool
    public var important: [AppID]
    public var defaultLimit: TimeInterval
    public var limitScope: LimitScope
    /// When loosening takes effect (`[commitment] loosen`).
    public var loosen: LoosenRule
    public var productivityGrayscale: Bool
    public var todo: String?
    public var feeds: [String]
    public var autostart: Bool

    /// The answers the current settings amount to.
    public init(current settings: Settings, autostart: Bool) {
        let modes = settings.modes
        var goals = Set<SurveyGoal>()
        if modes.enabledModes.contains(.productivity) { goals.insert(.focus) }
        if modes.automatic.isEnabled, modes.enabledModes.isSuperset(of: Self.nightModes) { goals.insert(.sleep) }
        if modes.enabledModes.contains(.social) { goals.insert(.lessSocialMedia) }
        self.goals = goals
        bedtime = modes.pinnedBedtime ?? modes.defaultSleepTimes.bedtime
        wakeTime = modes.pinnedWakeTime ?? modes.defaultSleepTimes.wakeTime
        pinSleepTimes = modes.pinnedBedtime != nil || modes.pinnedWakeTime != nil
        important = settings.important.sorted()
        defaultLimit = settings.defaultLimit
        limitScope = settings.limitScope
        loosen = settings.commitment.loosen
        productivityGrayscale = modes.productivityGrayscale
        todo = settings.content.todoPath
        feeds = settings.content.feeds
        self.autostart = autostart
    }

    static let nightModes: Set<Mode> = [.windDown, .sleep, .wakeUp]

    /// Writes the answers into the user's file, line by line (comments stay). Sleep times and the
    /// grayscale are written only when their goal is chosen, as only then are they asked.
    public func apply(to file: inout KeyFile) {
        let modes = ModeConfigKey.modes
        var enabled: [Mode] = [.standard]
        if goals.contains(.focus) { enabled.append(.productivity) }
        if goals.contains(.lessSocialMedia) { enabled.append(.social) }
        // Without the sleep goal the night modes stay there for the asking (`screentime bedtime`), not by the clock.
        enabled += [.windDown, .sleep, .wakeUp, .cheatDay]
        file.set(ModeConfigKey.enabled, to: KeyFileList.join(enabled.map(\.rawValue)), in: modes)
        // A per-mode `social = off` would override the list.
        for mode in Mode.allCases { file.remove(mode.rawValue, in: modes) }
        file.set(ModeConfigKey.automatic, to: goals.contains(.sleep) ? "on" : "off", in: modes)
        if goals.contains(.sleep) {
            let (set, cleared) = pinSleepTimes ? ((ModeConfigKey.bedtime, ModeConfigKey.wakeTime), (ModeConfigKey.defaultBedtime, ModeConfigKey.defaultWakeTime))
                                               : ((ModeConfigKey.defaultBedtime, ModeConfigKey.defaultWakeTime), (ModeConfigKey.bedtime, ModeConfigKey.wakeTime))
            file.set(set.0, to: bedtime.description, in: modes)
            file.set(set.1, to: wakeTime.description, in: modes)
            file.remove(cleared.0, in: modes)
            file.remove(cleared.1, in: modes)
        }
        if goals.contains(.focus) {
            file.set(ModeConfigKey.productivityGrayscale, to: productivityGrayscale ? "on" : "off", in: modes)
        }
        file.set(ExemptionKind.important.rawValue, to: KeyFileList.join(important.map(\.rawValue)), in: ConfigKey.exemptions)
        file.set(ConfigKey.defaultLimit, to: DurationText.format(defaultLimit), in: ConfigKey.limits)
        file.set(ConfigKey.limitScope, to: limitScope.rawValue, in: ConfigKey.limits)
        file.set(CommitmentSettings.loosenKey, to: loosen.rawValue, in: CommitmentSettings.section)
        if let todo { file.set("todo", to: todo, in: "productivity") } else { file.remove("todo", in: "productivity") }
        if feeds.isEmpty { file.remove("feeds", in: "rundown") } else { file.set("feeds", to: KeyFileList.join(feeds), in: "rundown") }
    }
}
