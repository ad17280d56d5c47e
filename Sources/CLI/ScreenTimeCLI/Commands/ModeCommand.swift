import AgentControl
import Glibc
import ScreenTimeCore

struct ModeCommand: Subcommand {
    static let name = "mode"
    static let abstract = "Show the mode, or switch to one (auto returns to the schedule)"
    static let usage = ["mode                show the mode and why",
                        "mode NAME           switch: \(Mode.switchable.map(\.rawValue).joined(separator: ", "))",
                        "mode auto           back to the schedule",
                        "mode NAME --yes     leaving a scheduled Productivity, Wind Down or Sleep early without the question"]

    /// nil: show the mode; "auto" or a switchable mode's name.
    let target: String?
    /// The answer to "leave it early?" given ahead, for scripts.
    let yes: Bool

    init(_ arguments: Arguments) throws {
        yes = arguments.flag("yes")
        if let word = arguments.nextIfAny() {
            if word.lowercased() == "auto" {
                target = "auto"
            } else if let mode = Mode(name: word), Mode.switchable.contains(mode) {
                target = mode.rawValue
            } else if Mode(name: word) == .cheatDay {
                throw UsageError(message: "a Cheat Day is booked at least 12 hours ahead with `screentime cheat-day book WHEN`")
            } else {
                throw UsageError(message: "“\(word)” is not a mode")
            }
        } else {
            target = nil
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        guard let target else {
            let status = try context.agent { try $0.status() }
            context.print("\(status.modeName) (\(status.reason))")
            return
        }
        var result = try context.agent { try $0.leaveMode(target, confirmed: false) }
        if result.outcome == "ask" {
            // Leaving a restrictive mode early is a continue: asked, with the mode's words (ModeExit).
            context.print(result.words)
            guard yes || isatty(STDIN_FILENO) == 1 else {
                throw CommandFailure(message: "leaving it early is a continue: answer on a terminal, or add --yes")
            }
            var leave = yes
            if !yes {
                try TerminalQuestions().ask("(yes/no) [no]: ") { (typed: String) throws(SurveyHint) in
                    let answer = String(typed.filter { !$0.isWhitespace }).lowercased()
                    leave = answer.hasPrefix("y")
                }
            }
            guard leave else { return context.print("It stays. Well kept.") }
            result = try context.agent { try $0.leaveMode(target, confirmed: true) }
        }
        switch result.outcome {
        case "continue":
            return context.print("Go ahead for \(DurationText.spoken(result.granted)); it comes back after. Recorded as a continue.")
        case "ended":
            context.print("Recorded as a continue.")
        default: break
        }
        if let mode = Mode(rawValue: target) {
            context.print("\(mode.displayName): \(mode.summary)\nUntil the schedule's next change; `screentime mode auto` returns to it sooner.")
        } else {
            context.print("Back to the schedule.")
        }
    }
}
