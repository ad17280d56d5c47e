import Agent
import CardContent
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// `screentime rundown`: the morning run-down (the Wake Up card) in the terminal.
struct RundownCommand: Subcommand {
    static let name = "rundown"
    static let abstract = "The morning run-down: events, reminders, stories, overnight, usual apps"
    static let usage = ["rundown [--json]"]
    static let notes = ["SCREENTIME_NOW=SECONDS (since 1970) shows the run-down of that moment instead of now (for tests).",
                        "Feeds are fetched now, each within [rundown] feed-timeout, and kept in $XDG_CACHE_HOME/screentime/feeds."]

    let json: Bool

    init(_ arguments: Arguments) throws {
        json = arguments.flag("json")
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        let names = AppNames(environment: context.environment)
        let rundown = Rundown(settings: try context.settings(), zone: context.zone, environment: context.environment,
                              names: { names.name(AppID($0)) })
        let document = rundown.document(at: try Self.now(context.environment))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.print(String(decoding: try encoder.encode(document), as: UTF8.self))
        } else {
            context.print(Self.text(document))
        }
    }

    /// The clock, or SCREENTIME_NOW when set.
    static func now(_ environment: [String: String]) throws -> Date {
        guard let text = environment["SCREENTIME_NOW"] else { return Date() }
        guard let seconds = Double(text) else { throw UsageError(message: "SCREENTIME_NOW=\(text) is not a number of seconds since 1970") }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The document as plain text: the title and message, each section with its items and note;
    /// every line plain (`PlainLine`), so no text from a file or feed drives the terminal.
    static func text(_ document: CardDocument) -> String {
        var lines = [document.title, document.message]
        for section in document.sections {
            lines.append("")
            lines.append(section.title)
            lines += section.items.map { "  " + PlainLine.of($0, limit: .max) }
            if let note = section.note { lines += note.split(separator: "\n").map { "  " + PlainLine.of(String($0), limit: .max) } }
        }
        return lines.joined(separator: "\n")
    }
}
