import FoundationEssentials
import ScreenTimeCore

struct LimitCommand: Subcommand {
    static let name = "limit"
    static let abstract = "Set, remove and list daily limits of apps and groups"
    static let usage = ["limit set APP|GROUP DURATION   (DURATION: 1h, 45m, 1h30m, 90s; GROUP: content, …)",
                        "limit rm APP", "limit default DURATION", "limit list"]

    enum Action {
        case set(AppID, TimeInterval)
        case remove(AppID)
        case setDefault(TimeInterval)
        case list
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (set, rm, default, list)") {
        case "set": action = .set(AppID(try arguments.next("APP")), try Self.duration(arguments.next("DURATION")))
        case "rm": action = .remove(AppID(try arguments.next("APP")))
        case "default": action = .setDefault(try Self.duration(arguments.next("DURATION")))
        case "list": action = .list
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    static func duration(_ text: String) throws -> TimeInterval {
        do {
            let seconds = try DurationText.parse(text)
            try DurationBounds.check(seconds, for: "a daily limit", within: DurationBounds.limit)
            return seconds
        } catch let error as DurationText.ParseError {
            throw UsageError(message: error.description)
        } catch let error as DurationBoundsError {
            throw UsageError(message: error.message)
        }
    }

    func run(_ context: Context) throws {
        switch action {
        case .set(let typed, let seconds):
            let app = try context.limitTarget(typed)
            let pending = try context.editConfig { $0.setLimit(app, seconds) }
            if let group = AppGroup(rawValue: app.rawValue) {
                context.tell("\(group.rawValue) (group): \(DurationText.format(seconds)) a day, shared by its apps", pending: pending)
            } else {
                context.tell("\(app): \(DurationText.format(seconds)) a day", pending: pending)
            }
        case .remove(let typed):
            let app = try context.limitTarget(typed)
            var removed = false
            let pending = try context.editConfig { removed = $0.removeLimit(app) }
            let fallback = try context.settings().defaultLimit
            if let group = AppGroup(rawValue: app.rawValue) {
                context.tell(removed ? "\(group.rawValue) (group): no shared limit now" : "\(group.rawValue) (group) had no shared limit", pending: pending)
            } else {
                context.tell(removed ? "\(app): back to the default limit (\(DurationText.format(fallback)))"
                                     : "\(app) had no limit of its own", pending: pending)
            }
        case .setDefault(let seconds):
            let pending = try context.editConfig { $0.setDefaultLimit(seconds) }
            context.tell("default limit: \(DurationText.format(seconds)) a day", pending: pending)
        case .list:
            let (settings, pending) = try context.keptSettings()
            let waiting = context.pendingLines(pending, settings: settings).map { "pending: " + $0 }
            context.print(([Self.list(settings)] + waiting).joined(separator: "\n"))
        }
    }

    static func list(_ settings: Settings) -> String {
        let covered = settings.limitScope == .all ? "every other app" : "other content, social and unknown apps"
        var lines = ["default  \(DurationText.format(settings.defaultLimit))  (\(covered); scope \(settings.limitScope.rawValue))"]
        for (group, limit) in settings.groupLimits.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("\(group.rawValue)  \(DurationText.format(limit))  (group, shared by its apps)")
        }
        let width = settings.limits.keys.map(\.rawValue.count).max() ?? 0
        for (app, limit) in settings.limits.sorted(by: { $0.key < $1.key }) {
            let note = settings.limit(for: app) == nil ? "  (exempt: \(settings.isEssential(app) ? "essential" : "important"))" : ""
            lines.append("\(app.rawValue.padded(to: width))  \(DurationText.format(limit))\(note)")
        }
        for kind in ExemptionKind.allCases {
            let apps = (kind == .important ? settings.important : settings.essential).sorted()
            if !apps.isEmpty { lines.append("\(kind.rawValue), no limit: \(apps.map(\.rawValue).joined(separator: ", "))") }
        }
        return lines.joined(separator: "\n")
    }
}
