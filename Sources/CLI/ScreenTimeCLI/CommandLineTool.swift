import AgentControl
import Glibc
import FoundationEssentials
import ScreenTimeCore

/// What `--help` says of a command: its name, a one-line abstract, usage and notes.
package protocol CommandDescription {
    static var name: String { get }
    static var abstract: String { get }
    /// Usage lines after `screentime `, e.g. `limit set APP DURATION`.
    static var usage: [String] { get }
    /// Lines after the usage (environment variables the command reads); none by default.
    static var notes: [String] { get }
}

extension CommandDescription {
    package static var notes: [String] { [] }
}

/// One subcommand: its description, validation in `init` and `run()`.
package protocol Subcommand: CommandDescription {
    /// Parses and validates; throws `UsageError` for anything malformed.
    init(_ arguments: Arguments) throws
    func run(_ context: Context) throws
}

/// The error kinds a command ends with, mapped to exit codes in one place.
package struct UsageError: Error {
    package var message: String
    package init(message: String) { self.message = message }
}
package struct AgentNotRunning: Error { var message = "the screentime agent is not running (start it with `screentime agent`, or log in again)" }
package struct CommandFailure: Error {
    package var message: String
    package init(message: String) { self.message = message }
}

package enum CommandLineTool {
    /// Every command, in the order `--help` lists them; screentime-reader runs those reading calendars and feeds.
    package static let commands: [Subcommand.Type] = [
        SetupCommand.self, AgentCommand.self, StatusCommand.self, ModeCommand.self, BreakCommand.self, BedtimeCommand.self, StayUpCommand.self,
        StartDayCommand.self, ReaderCommand<RundownDescription>.self, ReportCommand.self, AppsCommand.self, LimitCommand.self, ImportantCommand.self,
        EssentialCommand.self, GroupCommand.self, SiteCommand.self, RuleCommand.self, ContinueCommand.self, ScheduleCommand.self,
        ReaderCommand<CalendarDescription>.self, CheatDayCommand.self, SyncCommand.self, PendingCommand.self, PauseCommand.self, ConfigCommand.self, ReaderCommand<DisplayDescription>.self, ReaderCommand<DoctorDescription>.self,
    ]

    /// Runs the command `argv` names, one of `commands`; the exit status.
    package static func run(_ argv: [String], among available: [Subcommand.Type] = commands) -> Int32 {
        let context = Context()
        guard let first = argv.first, !["-h", "--help", "help"].contains(first) || argv.count > 1 else {
            context.print(help())
            return 0
        }
        if first == "--version" {
            context.print("screentime \(releaseVersion)")
            return 0
        }
        let name = first == "help" ? argv[1] : first
        guard let command = available.first(where: { $0.name == name }) else {
            context.printError("screentime: unknown command \"\(name)\" (see screentime --help)")
            return 64
        }
        let rest = Array(argv.dropFirst())
        if first == "help" || rest.contains("--help") || rest.contains("-h") {
            context.print(help(for: command))
            return 0
        }
        do {
            try context.checkNow()
            try execute(command, Arguments(rest), context)
            return 0
        } catch let error as UsageError {
            // One line and where to read more: the whole usage would bury the message.
            context.printError("screentime \(command.name): \(error.message) (see screentime \(command.name) --help)")
            return 64
        } catch let error as AgentNotRunning {
            context.printError("screentime \(command.name): \(error.message)")
            return 69
        } catch let error as CommandFailure {
            context.printError("screentime \(command.name): \(error.message)")
            return 1
        } catch {
            context.printError("screentime \(command.name): \(error)")
            return 1
        }
    }

    /// Parses, validates and runs one command (generic, so the existential metatype is opened).
    private static func execute<C: Subcommand>(_ command: C.Type, _ arguments: Arguments, _ context: Context) throws {
        try C(arguments).run(context)
    }

    static func help() -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  " + $0.name.padded(to: width) + "  " + $0.abstract }
        return """
            screentime: Screen Time for the Linux desktop. Counts time per app, warns before a limit,
            then minimizes the app and lets you choose to continue.

            Usage: screentime COMMAND [OPTIONS]

            Commands:
            \(lines.joined(separator: "\n"))

            `screentime help COMMAND` or `screentime COMMAND --help` tells more.
            Exit codes: 0 ok, 1 failure, 64 usage error, 69 agent not running.
            """
    }

    static func help(for command: Subcommand.Type) -> String {
        "\(command.abstract)\n\nUsage:\n" + command.usage.map { "  screentime \($0)" }.joined(separator: "\n")
            + (command.notes.isEmpty ? "" : "\n\n" + command.notes.joined(separator: "\n"))
    }
}

