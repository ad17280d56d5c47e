import FoundationEssentials
import ScreenTimeCore

/// What a simulated day or evening may cost the user in attention (issue 18, after the study:
/// reminders every 1-15 minutes make people ignore them). Each miss is a sentence naming the
/// interruptions at fault.
public enum InterruptionBudget {
    /// New bubbles and cards in a day or an evening.
    public static let perDay = 8
    /// The least time between two interruptions about the same thing, unless the user chose a
    /// shorter continue in between (or the earlier one was a break's card, which said when the
    /// break the user takes ends: its end is that span running out, like a continue's).
    public static let spacing: TimeInterval = 30 * 60

    public static func misses(_ outcome: DesktopDays.Outcome) -> [String] {
        let interruptions = outcome.ledger.interruptions
        var misses: [String] = []
        if interruptions.count > perDay { misses.append("\(interruptions.count) interruptions, more than \(perDay)") }
        misses += spacingMisses(interruptions, outcome.continues)
        misses += eveningContinueMisses(interruptions, outcome.continues)
        misses += limitContinueMisses(interruptions, outcome.continues)
        return misses
    }

    /// Two interruptions about the same thing less than `spacing` apart, where no shorter span
    /// (a continue the user chose, a break) ran out at the later one.
    static func spacingMisses(_ interruptions: [NotificationLedger.Interruption], _ continues: [DesktopDays.Continue]) -> [String] {
        var misses: [String] = []
        var last: [String: NotificationLedger.Interruption] = [:]
        for interruption in interruptions {
            defer { last[interruption.subject] = interruption }
            guard let earlier = last[interruption.subject], interruption.at.timeIntervalSince(earlier.at) < spacing else { continue }
            let chosen = continues.contains {
                $0.app.rawValue == interruption.subject && $0.at >= earlier.at && $0.granted < spacing
                    && $0.at.addingTimeInterval($0.granted) <= interruption.at
            }
            let announced = earlier.card?.breakEndsAt.map { $0 <= interruption.at } ?? false
            if !chosen && !announced {
                misses.append("\(clock(interruption.at)) \"\(interruption.summary)\" only "
                    + "\(Int(interruption.at.timeIntervalSince(earlier.at) / 60)) min after \(clock(earlier.at)) \"\(earlier.summary)\"")
            }
        }
        return misses
    }

    /// A continue in Wind Down or Sleep lets the evening's leisure run for its length: no card of
    /// the mode's about any app before it ends.
    static func eveningContinueMisses(_ interruptions: [NotificationLedger.Interruption], _ continues: [DesktopDays.Continue]) -> [String] {
        let evening = [Mode.windDown.rawValue, Mode.sleep.rawValue]
        return continues.filter { $0.rule == .mode && evening.contains($0.mode) }.flatMap { chosen in
            let end = chosen.at.addingTimeInterval(chosen.granted)
            return interruptions.filter { $0.card?.occasion == .notAllowed && $0.at > chosen.at && $0.at < end }.map {
                "\(clock($0.at)) \"\($0.summary)\" inside the \(Int(chosen.granted / 60)) min continued at \(clock(chosen.at))"
            }
        }
    }

    /// After a continue past a limit, one reminder before the time granted ends (not the whole
    /// countdown again), and none missing where it ended.
    static func limitContinueMisses(_ interruptions: [NotificationLedger.Interruption], _ continues: [DesktopDays.Continue]) -> [String] {
        continues.filter { $0.rule == .limit }.compactMap { chosen in
            let about = interruptions.filter { $0.app == chosen.app && $0.at > chosen.at }
            let end = about.first { $0.card?.occasion == .limitReached }
            let reminders = about.filter { reminder in reminder.isCountdown && end.map { reminder.at < $0.at } ?? true }
            if reminders.count > 1 {
                return "\(reminders.count) reminders after the continue of \(chosen.app) at \(clock(chosen.at)): "
                    + reminders.map { clock($0.at) }.joined(separator: ", ")
            }
            if let end, reminders.isEmpty {
                return "no reminder before \(chosen.app)'s continue of \(clock(chosen.at)) ended at \(clock(end.at))"
            }
            return nil
        }
    }

    /// `22:15` in Central Europe, where the days run.
    public static func clock(_ instant: Date) -> String {
        let minutes = Int((instant.timeIntervalSince1970 + 3600).rounded()) / 60 % 1440
        return String(format2(minutes / 60)) + ":" + format2(minutes % 60)
    }

    private static func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
