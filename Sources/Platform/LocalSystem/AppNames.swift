import FoundationEssentials
import ScreenTimeCore

/// App names from the installed desktop entries (reports, the run-down); an app without an entry
/// is shown by its id.
public struct AppNames {
    private let names: [String: String]

    public init(environment: [String: String]) {
        var names: [String: String] = [:]
        for entry in DesktopEntryIndex.load(environment: environment) where names[entry.id] == nil { names[entry.id] = entry.name }
        self.names = names
    }

    public func name(_ app: AppID) -> String { names[app.rawValue] ?? app.rawValue }
}
