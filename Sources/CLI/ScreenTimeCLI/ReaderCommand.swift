import AgentControl
import Glibc
import SystemErrors

/// A command screentime-reader runs: reading calendars and feeds needs libical, libcurl and
/// libxml2, whose loading (some 60 libraries) would cost every other command about 10 ms, and
/// `doctor` and `display restore` need the desktop backends, which `screentime` does not link.
/// This side knows the command's description, for `--help`, and hands it the words as they came.
package struct ReaderCommand<Description: CommandDescription>: DescribedCommand {
    let words: [String]

    package init(_ arguments: Arguments) throws { words = arguments.remaining() }

    package func run(_ context: Context) throws {
        let reader = SiblingExecutable.path(named: "screentime-reader")
        let argv = [reader, Self.name] + words
        var cArguments = argv.map { strdup($0) } + [nil]
        execv(reader, &cArguments)
        // Only on failure.
        throw CommandFailure(message: "cannot run \(reader): \(Errno.current)")
    }
}

/// A command whose description is one of the tool's (`RundownDescription`…), run here or by the reader.
package protocol DescribedCommand: Subcommand {
    associatedtype Description: CommandDescription
}

extension DescribedCommand {
    package static var name: String { Description.name }
    package static var abstract: String { Description.abstract }
    package static var usage: [String] { Description.usage }
    package static var notes: [String] { Description.notes }
}

package enum RundownDescription: CommandDescription {
    package static let name = "rundown"
    package static let abstract = "The morning run-down: events, reminders, stories, overnight, usual apps"
    package static let usage = ["rundown [--json]"]
    package static let notes = ["SCREENTIME_NOW=SECONDS (since 1970) shows the run-down of that moment instead of now (for tests).",
                                "Feeds are fetched now, each within [rundown] feed-timeout, and kept in $XDG_CACHE_HOME/screentime/feeds."]
}

package enum CalendarDescription: CommandDescription {
    package static let name = "calendar"
    package static let abstract = "Calendars (.ics files or folders) whose events name a mode"
    package static let usage = ["calendar add PATH", "calendar rm PATH", "calendar list   (each calendar and what is wrong in it)",
                                "calendar expand --from UNIX --to UNIX   (for the agent: the events naming a mode, as JSON)"]
}

package enum DoctorDescription: CommandDescription {
    package static let name = "doctor"
    package static let abstract = "What this desktop supports: focus, idle, display, notifications, autostart; what is wrong in the calendars"
    package static let usage = ["doctor"]
}

package enum DisplayDescription: CommandDescription {
    package static let name = "display"
    package static let abstract = "Put the screen's colours and notifications back (also run when the agent's unit stops)"
    package static let usage = ["display restore"]
}
