/// Why the agent's loop ends: a signal (SIGTERM as `systemctl --user stop` sends, SIGINT, SIGHUP),
/// or its session over (the session bus gone for good).
enum StopReason: CustomStringConvertible, Equatable {
    case signal(Int32)
    case sessionEnded

    /// As the run's end is recorded, and logged.
    var description: String {
        switch self {
        case .signal(let number): return "signal \(number)"
        case .sessionEnded: return "the session ended: its bus is gone"
        }
    }
}
