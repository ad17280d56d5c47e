import AgentControl
import ScreenTimeCore

/// `important` and `essential`: the same verbs on two lists.
struct ExemptionEdit {
    enum Action {
        case add(AppID)
        case remove(AppID)
        case list
    }

    let kind: ExemptionKind
    let action: Action

    init(_ kind: ExemptionKind, _ arguments: Arguments) throws {
        self.kind = kind
        switch try arguments.next("an action (add, rm, list)") {
        case "add": action = .add(AppID(try arguments.next("APP")))
        case "rm": action = .remove(AppID(try arguments.next("APP")))
        case "list": action = .list
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let typed):
            let app = try context.app(typed)
            let pending = try context.editConfig { $0.setExemption(kind, app, true) }
            context.tell(kind == .important ? "\(app) is important: no limit applies to it"
                                            : "\(app) is essential: it is never restricted", pending: pending)
        case .remove(let typed):
            let app = try context.app(typed)
            try context.editConfig { $0.setExemption(kind, app, false) }
            context.print("\(app) is no longer \(kind.rawValue)")
        case .list:
            // What holds now, and what waits (Commitments).
            let (settings, pending) = try context.keptSettings()
            let waiting = pending.filter { $0.facet.hasPrefix(kind.rawValue + ":") }
            let apps = (kind == .important ? settings.important : settings.essential).sorted().map(\.rawValue)
            let builtIn = kind == .important ? [] : SafetyApps.Kind.allCases.flatMap { kind in
                SafetyApps.patterns(kind).map { "\($0)  (built in: \(kind.rawValue))" }
            }
            context.print(apps.isEmpty && builtIn.isEmpty ? "(none)" : (apps + builtIn).joined(separator: "\n"))
            for line in context.pendingLines(waiting, settings: settings) { context.print("pending: " + line) }
        }
    }
}

struct ImportantCommand: Subcommand {
    static let name = "important"
    static let abstract = "Apps exempt from limits"
    static let usage = ["important add APP", "important rm APP", "important list"]
    let edit: ExemptionEdit
    init(_ arguments: Arguments) throws { edit = try ExemptionEdit(.important, arguments) }
    func run(_ context: Context) throws { try edit.run(context) }
}

struct EssentialCommand: Subcommand {
    static let name = "essential"
    static let abstract = "Apps never restricted, in any mode"
    static let usage = ["essential add APP", "essential rm APP", "essential list"]
    let edit: ExemptionEdit
    init(_ arguments: Arguments) throws { edit = try ExemptionEdit(.essential, arguments) }
    func run(_ context: Context) throws { try edit.run(context) }
}
