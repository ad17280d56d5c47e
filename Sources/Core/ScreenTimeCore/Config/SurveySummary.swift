import FoundationEssentials

/// The modes as a config sets them up, one line each: what `screentime setup` ends with.
public enum SurveySummary {
    public static func text(_ settings: Settings) -> String {
        let modes = settings.modes
        let bedtime = modes.pinnedBedtime ?? modes.defaultSleepTimes.bedtime
        let wake = modes.pinnedWakeTime ?? modes.defaultSleepTimes.wakeTime
        let learned = modes.pinnedBedtime == nil ? " (learned from your nights once three are known)" : ""
        func at(_ time: WallTime, _ offset: TimeInterval) -> String { WallTime(secondsOfDay: time.secondsOfDay + Int(offset)).description }
        let automatic = modes.automatic
        let covered = settings.limitScope == .all ? "every app" : "content, social and unknown apps"
        var lines = ["Modes as configured:"]
        for mode in Mode.allCases {
            let line: String
            if !modes.enabledModes.contains(mode) {
                line = "off (screentime config set modes.\(mode.rawValue) on turns it on)"
            } else {
                switch mode {
                case .standard:
                    line = "when no other mode is on; \(DurationText.format(settings.defaultLimit)) a day for \(covered)"
                case .productivity:
                    let screen = settings.profile(for: .productivity).displayFilter == .grayscale ? "gray screen" : "screen in colour"
                    line = "when you ask (screentime mode productivity), on a schedule or from your calendar; \(screen)"
                case .social:
                    line = "when you ask (screentime mode social), on a schedule or from your calendar"
                case .windDown where automatic.isEnabled:
                    line = "from \(at(bedtime, -automatic.windDownBeforeBedtime)), before your bedtime \(bedtime)\(learned)"
                case .sleep where automatic.isEnabled:
                    line = "from \(at(bedtime, automatic.sleepAfterWindDown - automatic.windDownBeforeBedtime)), or when you say screentime bedtime"
                case .wakeUp where automatic.isEnabled:
                    line = "from \(at(wake, -automatic.wakeUpBeforeWakeTime)) to \(at(wake, automatic.wakeUpAfterWakeTime)) around your wake time \(wake), or until screentime start-day"
                case .windDown, .sleep, .wakeUp:
                    line = "when you ask (screentime mode \(mode.rawValue)); not by the clock"
                case .cheatDay:
                    line = "when you book one at least 12 hours ahead (screentime cheat-day book WHEN)"
                }
            }
            lines.append("  " + mode.displayName.padded(to: 14) + line)
        }
        if !settings.important.isEmpty {
            lines.append("Important, no limit: " + settings.important.sorted().map(\.rawValue).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
