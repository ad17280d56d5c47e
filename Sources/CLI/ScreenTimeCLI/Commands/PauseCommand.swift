import AgentControl
import FoundationEssentials
import ScreenTimeCore

/// `pause DURATION`: no limits or modes for a while, recorded as a pause, ending by itself. Asking
/// is a loosening, so it starts when `[commitment] loosen` says (at once on a Cheat Day).
struct PauseCommand: Subcommand {
    static let name = "pause"
    static let abstract = "Stop limits and modes for a while (from when loosening is allowed); `pause end` ends it"
    static let usage = ["pause DURATION   (1m to 12h)", "pause end"]

    enum Action {
        case start(TimeInterval)
        case end
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        let first = try arguments.next("a DURATION (or end)")
        if first == "end" {
            action = .end
        } else {
            do {
                let seconds = try DurationText.parse(first)
                try DurationBounds.check(seconds, for: "a pause", within: PauseRule.bounds)
                action = .start(seconds)
            } catch let error as DurationText.ParseError {
                throw UsageError(message: error.description)
            } catch let error as DurationBoundsError {
                throw UsageError(message: error.message)
            }
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        switch action {
        case .start(let seconds):
            let (start, end) = try context.agent { try $0.pause(seconds) }
            let now = context.now
            let until = PendingChangeText.when(end, now: now, zone: context.zone)
            if start.timeIntervalSince(now) < 60 {
                context.print("Paused until \(until): no limits or modes hold; your time is still counted. `screentime pause end` ends it sooner.")
            } else {
                let from = PendingChangeText.when(start, now: now, zone: context.zone)
                context.print("Your \(DurationText.format(seconds)) pause starts \(from) and lasts until \(until): "
                              + "more freedom waits, as every loosening does ([commitment] loosen). `screentime pause end` drops it.")
            }
        case .end:
            try context.agent { try $0.endPause() }
            context.print("The pause is over: your limits and modes hold again.")
        }
    }
}
