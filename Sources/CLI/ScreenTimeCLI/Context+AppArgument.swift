import AgentControl
import LocalSystem
import ScreenTimeCore

extension Context {
    /// The app an APP argument names: as typed, or the one installed or configured app it
    /// abbreviates (`AppAbbreviation`); a usage error listing the candidates when several fit.
    func app(_ typed: AppID) throws -> AppID {
        try Self.checkStorable(typed.rawValue, "APP")
        var known = Set(DesktopEntryIndex.load(environment: environment).map { AppID($0.id) })
        if let settings = try? settings() {
            known.formUnion(settings.limits.keys)
            known.formUnion(settings.important.union(settings.essential))
            for edit in settings.groupEdits.values { known.formUnion(edit.added.union(edit.removed)) }
        }
        switch AppAbbreviation.expand(typed.rawValue, known: known) {
        case .id(let app):
            try Self.checkStorable(app.rawValue, "APP")
            return app
        case .ambiguous(let candidates):
            throw UsageError(message: "`\(typed)` could be any of \(candidates.map(\.rawValue).joined(separator: ", ")): say which")
        }
    }

    /// What a limit names: a group by its name (`content`), else an app as `app(_:)` reads it.
    func limitTarget(_ typed: AppID) throws -> AppID {
        AppGroup(rawValue: typed.rawValue) == nil ? try app(typed) : typed
    }

    /// A usage error naming `argument` when the config file could not keep `text` as it is (`StoredName`).
    static func checkStorable(_ text: String, _ argument: String) throws {
        do { try StoredName.check(text) } catch { throw UsageError(message: "\(argument) \(error.message)") }
    }
}
