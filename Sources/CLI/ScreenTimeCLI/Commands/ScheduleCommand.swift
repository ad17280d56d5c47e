import FoundationEssentials
import ScreenTimeCore

struct ScheduleCommand: Subcommand {
    static let name = "schedule"
    static let abstract = "Schedule modes: weekly or once"
    static let usage = ["schedule add MODE --at WHEN [--for DURATION] [--every DAYS]",
                        "schedule add productivity --at 09:00 --for 3h --every mon-fri    (weekly)",
                        "schedule add social --at \"2026-12-01 18:00\" --for 2h           (once; 18:00 alone: the next 18:00)",
                        "schedule list", "schedule rm ID"]

    enum Action {
        case add(mode: String, at: String, duration: String?, days: String?)
        case list
        case remove(String)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (add, list, rm)") {
        case "add":
            let mode = try arguments.next("MODE")
            guard let at = try arguments.option("at") else { throw UsageError(message: "missing --at WHEN") }
            action = .add(mode: mode, at: at, duration: try arguments.option("for"), days: try arguments.option("every"))
        case "list": action = .list
        case "rm": action = .remove(try arguments.next("ID"))
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let modeText, let at, let duration, let days):
            var entry: ScheduleEntry
            do {
                entry = try ScheduleEntry.parse(mode: modeText, at: at, for: duration, every: days, now: context.now, zone: context.zone)
            } catch {
                throw UsageError(message: error.message)
            }
            let taken = Set(try context.settings().modes.schedule.map(\.id))
            entry.id = (1...).lazy.map { "\(entry.mode.rawValue)-\($0)" }.first { !taken.contains($0) }!
            try context.editConfig { $0.set(entry.id, to: entry.configValue, in: ModeConfigKey.schedule) }
            context.print("\(entry.id): \(entry)")
        case .list:
            let entries = try context.settings().modes.schedule
            guard !entries.isEmpty else { return context.print("Nothing scheduled. Add with `screentime schedule add MODE --at WHEN`.") }
            let width = entries.map(\.id.count).max() ?? 0
            for entry in entries { context.print("\(entry.id.padded(to: width))  \(entry)") }
        case .remove(let id):
            var removed = false
            let pending = try context.editConfig { removed = $0.remove(id, in: ModeConfigKey.schedule) }
            guard removed else { throw CommandFailure(message: "nothing is scheduled as `\(id)` (see `screentime schedule list`)") }
            context.tell("\(id): removed", pending: pending)
        }
    }
}
