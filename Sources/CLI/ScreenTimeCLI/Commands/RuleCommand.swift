import ScreenTimeCore

struct RuleCommand: Subcommand {
    static let name = "rule"
    static let abstract = "Virtual apps from window titles (a site in a browser, limited like an app)"
    static let usage = ["rule add NAME --app APP --title TEXT   (TEXT found in the title, any case; APP * is any browser)",
                        "rule rm NAME", "rule list"]

    enum Action {
        case add(AppID, TitleRule.Match)
        case remove(AppID)
        case list
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (add, rm, list)") {
        case "add":
            let name = try arguments.next("NAME")
            guard let app = try arguments.option("app") else { throw UsageError(message: "missing --app APP") }
            guard let title = try arguments.option("title"), !title.isEmpty else { throw UsageError(message: "missing --title TEXT") }
            guard !name.contains(where: \.isWhitespace) else {
                throw UsageError(message: "NAME `\(name)` must be one word (it becomes the app's id)")
            }
            try Context.checkStorable(name, "NAME")
            try Context.checkStorable(app, "APP")
            guard !title.contains(";") else { throw UsageError(message: "TEXT cannot contain `;`") }
            action = .add(AppID(name), TitleRule.Match(app: AppID(app), title: title))
        case "rm":
            let name = try arguments.next("NAME")
            try Context.checkStorable(name, "NAME")
            action = .remove(AppID(name))
        case "list": action = .list
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let name, let match):
            let pending = try context.editConfig { $0.addTitleRule(name, match) }
            context.tell("\(name): a \(match.app) window whose title contains “\(match.title)” "
                + "(limit it with `screentime limit set \(name) 30m`)", pending: pending)
        case .remove(let name):
            var removed = false
            let pending = try context.editConfig { removed = $0.removeTitleRule(name) }
            let builtIn = TitleRule.builtIn.contains { $0.name == name }
            context.tell(!removed ? "there is no rule \(name)"
                : builtIn ? "\(name) is no longer a rule (built in: it stays off until you add it again)"
                : "\(name) is no longer a rule", pending: pending)
        case .list:
            let rules = try context.settings().titleRules
            let width = rules.map(\.name.rawValue.count).max() ?? 0
            context.print(rules.isEmpty ? "(none)" : rules.map { rule in
                "\(rule.name.rawValue.padded(to: width))  " + rule.matches.map { match in
                    let app = match.app == TitleRule.Match.anyBrowser ? "any browser" : match.app.rawValue
                    return "\(app) window titled “…\(match.title)…”"
                }.joined(separator: ", ")
            }.joined(separator: "\n"))
        }
    }
}
