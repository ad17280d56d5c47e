import AgentControl
import ScreenTimeCore
import SessionBus

struct BreakCommand: Subcommand {
    static let name = "break"
    static let abstract = "Take a Productivity break now"
    static let usage = ["break"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        try context.agent { try $0.press(AgentInterface.Method.break) }
        let length = try context.settings().modes.breaks.length
        context.print("A \(DurationText.spoken(length)) break starts now: stand up, look out of a window, have some water.")
    }
}
