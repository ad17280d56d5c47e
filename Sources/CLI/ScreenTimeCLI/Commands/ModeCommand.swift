import AgentControl
import ScreenTimeCore

struct ModeCommand: Subcommand {
    static let name = "mode"
    static let abstract = "Show the mode, or switch to one (auto returns to the schedule)"
    static let usage = ["mode                show the mode and why",
                        "mode NAME           switch: \(Mode.switchable.map(\.rawValue).joined(separator: ", "))",
                        "mode auto           back to the schedule"]

    /// nil: show the mode; "auto" or a switchable mode's name.
    let target: String?

    init(_ arguments: Arguments) throws {
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
        try context.agent { try $0.setMode(target) }
        if let mode = Mode(rawValue: target) {
            context.print("\(mode.displayName): \(mode.summary)\nUntil the schedule's next change; `screentime mode auto` returns to it sooner.")
        } else {
            context.print("Back to the schedule.")
        }
    }
}
