/// Where screentime keeps its files, after the XDG Base Directory specification.
///
/// Pure logic over an environment dictionary, so the CLI, the agent and tests agree on paths
/// without touching the process environment. Per the specification, a variable that is unset,
/// empty or not absolute is ignored and its default used instead.
public enum XDGPaths {
    /// The directory name under each XDG base directory.
    public static let applicationDirectoryName = "screentime"

    /// `$XDG_CONFIG_HOME/screentime/config`, with `XDG_CONFIG_HOME` defaulting to `$HOME/.config`.
    public static func configFile(environment: [String: String]) -> String {
        join(configHome(environment: environment), applicationDirectoryName, "config")
    }

    /// `$XDG_CONFIG_HOME`, defaulting to `$HOME/.config` (where other programs' settings live too: kwinrc).
    public static func configHome(environment: [String: String]) -> String {
        base(environment, "XDG_CONFIG_HOME", default: ".config")
    }

    /// `$XDG_DATA_HOME`, defaulting to `$HOME/.local/share`.
    public static func dataHome(environment: [String: String]) -> String {
        base(environment, "XDG_DATA_HOME", default: ".local/share")
    }

    /// Where installed data is looked for, earlier first: `$XDG_DATA_HOME`, then each absolute
    /// folder of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    public static func dataDirectories(environment: [String: String]) -> [String] {
        let shared = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return [dataHome(environment: environment)] + shared
    }

    /// `$XDG_DATA_HOME/screentime`.
    public static func dataDirectory(environment: [String: String]) -> String {
        join(dataHome(environment: environment), applicationDirectoryName)
    }

    /// `$XDG_CACHE_HOME/screentime/feeds` (`XDG_CACHE_HOME` defaulting to `$HOME/.cache`): the last
    /// good copy of each of the run-down's feeds.
    public static func feedCacheDirectory(environment: [String: String]) -> String {
        join(base(environment, "XDG_CACHE_HOME", default: ".cache"), applicationDirectoryName, "feeds")
    }

    /// `$XDG_STATE_HOME/screentime` (`XDG_STATE_HOME` defaulting to `$HOME/.local/state`): what
    /// outlives a session but is no data of the user's (saved do-not-disturb states, the weekly summary).
    public static func stateDirectory(environment: [String: String]) -> String {
        join(base(environment, "XDG_STATE_HOME", default: ".local/state"), applicationDirectoryName)
    }

    /// `$XDG_DATA_HOME/screentime/screentime.db`: the usage store.
    public static func databaseFile(environment: [String: String]) -> String {
        join(dataDirectory(environment: environment), "screentime.db")
    }

    /// `$XDG_RUNTIME_DIR/screentime`; without a runtime directory (no login session),
    /// `$TMPDIR/screentime-<uid>` (`TMPDIR` defaulting to `/tmp`), named for the user. A shared
    /// folder can hold that name already: `PrivateFiles.makeOwnFolder` takes it only when it is theirs alone.
    public static func runtimeDirectory(environment: [String: String], uid: UInt32) -> String {
        if let runtime = absolute(environment["XDG_RUNTIME_DIR"]) {
            return join(runtime, applicationDirectoryName)
        }
        return join(absolute(environment["TMPDIR"]) ?? "/tmp", "\(applicationDirectoryName)-\(uid)")
    }

    /// The home directory; `/` when `HOME` is unset or relative, so that a broken environment
    /// yields a path that fails loudly where it is used instead of one relative to the working directory.
    public static func home(environment: [String: String]) -> String {
        absolute(environment["HOME"]) ?? "/"
    }

    /// A path the user wrote from the home folder (`~/todo.txt`) made absolute; anything else as written.
    public static func expandingHome(_ path: String, environment: [String: String]) -> String {
        path.hasPrefix("~/") ? home(environment: environment) + path.dropFirst() : path
    }

    private static func base(_ environment: [String: String], _ variable: String, default relative: String) -> String {
        absolute(environment[variable]) ?? join(home(environment: environment), relative)
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    /// Joins path components with single slashes, whatever trailing slashes the parts carry.
    private static func join(_ first: String, _ rest: String...) -> String {
        var path = first
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        for part in rest {
            if !path.hasSuffix("/") { path += "/" }
            path += part
        }
        return path
    }
}
