import ScreenTimeCore

struct GroupCommand: Subcommand {
    static let name = "group"
    static let abstract = "Groups of apps that modes allow (productivity, communication, content, clock, social-apps, browsers, system)"
    static let usage = ["group list", "group add GROUP APP", "group rm GROUP APP"]

    enum Action {
        case list
        case add(AppGroup, AppID)
        case remove(AppGroup, AppID)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (list, add, rm)") {
        case "list": action = .list
        case "add": action = .add(try Self.group(arguments.next("GROUP")), AppID(try arguments.next("APP")))
        case "rm": action = .remove(try Self.group(arguments.next("GROUP")), AppID(try arguments.next("APP")))
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    static func group(_ name: String) throws -> AppGroup {
        if let group = AppGroup(rawValue: name) { return group }
        if ExemptionKind(rawValue: name) != nil { throw UsageError(message: "use `screentime \(name) add APP` for \(name) apps") }
        throw UsageError(message: "unknown group `\(name)` (known: \(AppGroup.allCases.map(\.rawValue).joined(separator: ", ")))")
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let group, let typed):
            let app = try context.app(typed)
            let pending = try context.editConfig { $0.setGroupMember(group, app, true) }
            context.tell("\(app) is in \(group.rawValue)", pending: pending)
        case .remove(let group, let typed):
            let app = try context.app(typed)
            let pending = try context.editConfig { $0.setGroupMember(group, app, false) }
            context.tell("\(app) is out of \(group.rawValue), whatever its categories say", pending: pending)
        case .list:
            context.print(Self.list(try context.settings()))
        }
    }

    static func list(_ settings: Settings) -> String {
        var lines: [String] = []
        let width = (AppGroup.allCases.map(\.rawValue) + ExemptionKind.allCases.map(\.rawValue)).map(\.count).max() ?? 0
        for group in AppGroup.allCases {
            let edit = settings.groupEdits[group] ?? GroupEdit()
            var parts: [String] = []
            if !group.categories.isEmpty { parts.append("categories " + group.categories.sorted().joined(separator: ", ")) }
            var added = edit.added.sorted().map(\.rawValue)
            if group == .content { added += settings.titleRules.map { "\($0.name.rawValue) (title rule)" } }
            parts.append(added.isEmpty ? "no apps added" : "added " + added.joined(separator: ", "))
            if !edit.removed.isEmpty { parts.append("removed " + edit.removed.sorted().map(\.rawValue).joined(separator: ", ")) }
            lines.append("\(group.rawValue.padded(to: width))  \(parts.joined(separator: "; "))")
        }
        let essential = settings.essential.sorted().map(\.rawValue) + ["screentime and the desktop's safety apps (built in: essential list)"]
        lines.append("\("important".padded(to: width))  \(settings.important.isEmpty ? "(none)" : settings.important.sorted().map(\.rawValue).joined(separator: ", "))")
        lines.append("\("essential".padded(to: width))  \(essential.joined(separator: ", ")); categories \(AppGroup.essentialCategories.sorted().joined(separator: ", "))")
        lines.append("An app also belongs to every group whose categories its desktop entry lists, app by app; \"removed\" overrides that.")
        return lines.joined(separator: "\n")
    }
}
