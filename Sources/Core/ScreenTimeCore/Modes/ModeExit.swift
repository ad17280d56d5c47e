import FoundationEssentials

/// Leaving a restrictive mode early, by hand, while its schedule, a calendar or the clock holds it:
/// a continue, asked with the mode's kind words and what is left of it, and recorded. Productivity
/// keeps its own friction: 3 minutes at a time, so the first leave is a continue for its bypass,
/// and ending it outright is offered only after one.
public enum ModeExit {
    public static let restrictive: Set<Mode> = [.productivity, .windDown, .sleep]

    public enum Outcome: Equatable, Sendable {
        /// The mode steps aside for `seconds`, then holds again.
        case continueFor(TimeInterval)
        /// The mode ends until the schedule's next change.
        case end
    }

    /// Whether switching to `target` (nil: `auto`) at `now` leaves `decision`'s mode early.
    public static func isEarly(_ decision: ModeDecision, to target: Mode?) -> Bool {
        guard restrictive.contains(decision.mode), let target, target != decision.mode else { return false }
        switch decision.reason {
        case .scheduled, .calendar, .automatic: return true
        case .manual, .cheatDay, .standard: return false
        }
    }

    /// What leaving gives: in Productivity, a continue for its bypass unless one was taken in this
    /// run of it (`continuedInThisRun`); elsewhere the end.
    public static func outcome(_ mode: Mode, continuedInThisRun: Bool, settings: Settings) -> Outcome {
        guard mode == .productivity, !continuedInThisRun else { return .end }
        return .continueFor(settings.profile(for: .productivity).bypassGrant ?? 180)
    }

    /// A recorded exit belongs to the mode's current run when it began it again: a continue's end
    /// is where the run (re)started.
    public static func belongsToRun(exitAt: Date, granted: TimeInterval, runSince: Date?) -> Bool {
        guard let runSince else { return false }
        return exitAt.addingTimeInterval(granted) >= runSince.addingTimeInterval(-60) && exitAt <= runSince.addingTimeInterval(granted + 60)
    }

    /// The question: the mode's words, until when and what is left, and what leaving means.
    public static func question(_ decision: ModeDecision, outcome: Outcome, now: Date, zone: LocalTimeZone) -> String {
        let mode = decision.mode
        let left = decision.next.map { " until \(zone.formatMinute($0.at)) (\(DurationText.spoken($0.at.timeIntervalSince(now))) left)" } ?? ""
        let kind: String = switch mode {
        case .productivity: "This is the time you set aside to focus."
        case .windDown: "This is your evening slowing down, so sleep comes easier."
        case .sleep: "This is your night: rest is the plan."
        default: ""
        }
        let offer: String = switch outcome {
        case .continueFor(let seconds): "Step out for \(DurationText.spoken(seconds))? \(mode.displayName) comes back after; ending it is offered after this first continue."
        case .end: "End \(mode.displayName) now? It is recorded as a continue."
        }
        return "\(mode.displayName) holds\(left): \(mode.summary) \(kind)\n\(offer)"
    }
}
