import AgentControl
import Glibc
import ScreenTimeCore
import SystemErrors

struct ConfigCommand: Subcommand {
    static let name = "config"
    static let abstract = "Show or change the config file"
    static let usage = ["config path", "config get SECTION.KEY      (e.g. general.day-start, limits.firefox)",
                        "config set SECTION.KEY VALUE", "config edit                 (opens $VISUAL or $EDITOR)"]

    enum Action {
        case path
        case get(section: String, key: String)
        case set(section: String, key: String, value: String)
        case edit
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (path, get, set, edit)") {
        case "path": action = .path
        case "get":
            let (section, key) = try Self.split(arguments.next("SECTION.KEY"))
            action = .get(section: section, key: key)
        case "set":
            let (section, key) = try Self.split(arguments.next("SECTION.KEY"))
            action = .set(section: section, key: key, value: try arguments.next("VALUE"))
        case "edit": action = .edit
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    static func split(_ name: String) throws -> (String, String) {
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex, dot != name.index(before: name.endIndex) else {
            throw UsageError(message: "`\(name)` is not SECTION.KEY (e.g. general.day-start)")
        }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    func run(_ context: Context) throws {
        switch action {
        case .path:
            context.print(context.configPath)
        case .get(let section, let key):
            let file = try ConfigEditor(path: context.configPath).document()
            guard let value = file.value(key, in: section) else { throw CommandFailure(message: "\(section).\(key) is not set") }
            context.print(value)
        case .set(let section, let key, let value):
            let pending = try context.editConfig { $0.set(key, to: value, in: section) }
            context.tell("\(section).\(key) = \(value)", pending: pending)
        case .edit:
            try context.editConfig { _ in } // creates the commented template when there is no file yet
            let editor = context.environment["VISUAL"] ?? context.environment["EDITOR"] ?? "editor"
            let argv = [editor, context.configPath]
            var cArguments = argv.map { strdup($0) } + [nil]
            execvp(editor, &cArguments)
            throw CommandFailure(message: "cannot start the editor `\(editor)`: \(Errno.current)")
        }
    }
}
