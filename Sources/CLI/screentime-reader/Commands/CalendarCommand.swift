import Agent
import AgentControl
import ScreenTimeCLI
import CalendarFeed
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

struct CalendarCommand: DescribedCommand {
    typealias Description = CalendarDescription

    enum Action {
        case add(String)
        case remove(String)
        case list
        case expand(from: Date, to: Date, now: Date?)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (add, rm, list)") {
        case "add": action = .add(try arguments.next("PATH"))
        case "rm": action = .remove(try arguments.next("PATH"))
        case "list": action = .list
        case "expand":
            func seconds(_ name: String) throws -> Date? {
                guard let text = try arguments.option(name) else { return nil }
                guard let value = Int64(text) else { throw UsageError(message: "--\(name) takes Unix seconds, not `\(text)`") }
                return Date(timeIntervalSince1970: TimeInterval(value))
            }
            guard let from = try seconds("from") else { throw UsageError(message: "missing --from UNIX") }
            guard let to = try seconds("to") else { throw UsageError(message: "missing --to UNIX") }
            guard from < to else { throw UsageError(message: "--from must be before --to") }
            // The agent's now: of a calendar with too many events, those from now on are kept.
            action = .expand(from: from, to: to, now: try seconds("now"))
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let given):
            let path = Self.absolute(given)
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure(message: "no such file or folder: \(path)") }
            try context.editConfig { file in
                var paths = KeyFileList.split(file.value(ModeConfigKey.paths, in: ModeConfigKey.calendars) ?? "")
                if !paths.contains(path) { paths.append(path) }
                file.set(ModeConfigKey.paths, to: KeyFileList.join(paths), in: ModeConfigKey.calendars)
            }
            context.print(Self.found(at: path, zone: context.zone, now: context.now))
            context.print("Events whose title or category names a mode now switch to it.")
        case .remove(let given):
            let path = Self.absolute(given)
            var removed = false
            let pending = try context.editConfig { file in
                var paths = KeyFileList.split(file.value(ModeConfigKey.paths, in: ModeConfigKey.calendars) ?? "")
                let before = paths.count
                paths.removeAll { $0 == path || $0 == given }
                removed = paths.count != before
                if removed { file.set(ModeConfigKey.paths, to: KeyFileList.join(paths), in: ModeConfigKey.calendars) }
            }
            guard removed else { throw CommandFailure(message: "\(path) is not one of the calendars (see `screentime calendar list`)") }
            context.tell("\(path): removed", pending: pending)
        case .list:
            let paths = try context.settings().modes.calendarPaths
            guard !paths.isEmpty else { return context.print("No calendars. Add an .ics file or folder with `screentime calendar add PATH`.") }
            for calendar in CalendarCheck.run(paths: paths, zone: context.zone, now: context.now) {
                context.print(calendar.path + (calendar.exists ? "" : "  (missing)"))
                for problem in calendar.problems { context.print("  " + problem.description) }
            }
        case .expand(let from, let to, let now):
            let paths = try context.settings().modes.calendarPaths
            let result = CalendarReader(zone: context.zone).read(paths: paths, range: from..<to, now: now)
            context.printVerbatim(CalendarExpansion(intervals: result.intervals, problems: result.problems.map(\.description)).json())
        }
    }

    /// The weeks `add` looks ahead to say what a calendar holds.
    static let foundAhead: TimeInterval = 28 * 86_400

    /// What `add` found at `path`, so the user knows the right folder was named: how many calendars
    /// (folders holding .ics files) and files, the mode events in the next 4 weeks, and the problems.
    static func found(at path: String, zone: LocalTimeZone, now: Date) -> String {
        let files: [String]
        do { files = try CalendarFiles.icsFiles(at: path) } catch { return "warning: \(error)" }
        guard !files.isEmpty else {
            return "\(path): no .ics files yet (a folder is read with its subfolders \(CalendarTree.depth) levels down)"
        }
        let read = CalendarReader(zone: zone).read(paths: [path], range: now..<now.addingTimeInterval(foundAhead), now: now)
        let calendars = Set(files.map(CalendarTree.folder)).count
        let holds = files == [path] ? "1 calendar file" : "\(count(calendars, "calendar")) (\(count(files.count, ".ics file")))"
        var lines = ["\(path): \(holds), \(count(read.intervals.count, "mode event")) in the next 4 weeks"]
        if read.intervals.isEmpty {
            let names = Mode.allCases.filter { $0 != .standard && $0 != .cheatDay }.map { "“\($0.displayName)”" }
            lines.append("No event names a mode yet: give one a title or category such as " + names.joined(separator: ", ") + ".")
        }
        let shown = 5
        lines += read.problems.prefix(shown).map { "warning: \($0)" }
        if read.problems.count > shown { lines.append("warning: \(read.problems.count - shown) more problems") }
        return lines.joined(separator: "\n")
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// Calendars are named by absolute path: the agent runs from another directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let base = FileManager.default.currentDirectoryPath
        let trimmed = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return (base.hasSuffix("/") ? base : base + "/") + trimmed
    }
}
