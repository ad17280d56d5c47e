import AgentControl
import ScreenTimeCore
import SessionBus

/// The evening and morning buttons: `bedtime`, `stay-up`, `start-day`.
struct BedtimeCommand: Subcommand {
    static let name = "bedtime"
    static let abstract = "Go to bed: Sleep mode from now until Wake Up"
    static let usage = ["bedtime"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        try context.agent { try $0.press(AgentInterface.Method.bedtime) }
        context.print("Good night. Sleep mode is on until the morning.")
    }
}

struct StayUpCommand: Subcommand {
    static let name = "stay-up"
    static let abstract = "Pause Wind Down for a while"
    static let usage = ["stay-up"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        try context.agent { try $0.press(AgentInterface.Method.stayUp) }
        let pause = try context.settings().modes.automatic.stayUpPause
        context.print("Wind Down is paused for \(DurationText.spoken(pause)). Your choice; enjoy it.")
    }
}

struct StartDayCommand: Subcommand {
    static let name = "start-day"
    static let abstract = "Start the day: end Wake Up (or Sleep) now"
    static let usage = ["start-day"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        try context.agent { try $0.press(AgentInterface.Method.startDay) }
        context.print("Good morning. Have a good day.")
    }
}
