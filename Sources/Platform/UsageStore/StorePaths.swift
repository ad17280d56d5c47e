import ScreenTimeCore

/// Where the usage store lives.
public enum StorePaths {
    /// `$XDG_DATA_HOME/screentime/screentime.db`, with `XDG_DATA_HOME` defaulting to `$HOME/.local/share`.
    public static func defaultDatabasePath(environment: [String: String]) -> String {
        XDGPaths.databaseFile(environment: environment)
    }
}
