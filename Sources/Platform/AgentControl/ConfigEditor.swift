import Glibc
import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// Changes the config file the way a careful hand would: the user's comments and order stay,
/// the result must still be a valid configuration, and the file is replaced atomically so the
/// agent never reads half of it.
public struct ConfigEditor {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file as it is, or the commented template when there is none yet.
    public func document() throws -> KeyFile {
        guard let data = FileManager.default.contents(atPath: path) else { return try KeyFile(parsing: Settings.template) }
        do {
            return try KeyFile(parsing: String(decoding: data, as: UTF8.self))
        } catch let error as KeyFile.ParseError {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
    }

    /// Applies `change` to the file as it is now, checks the result and writes it. Returns the new
    /// settings. The whole read-change-write holds the config lock, so concurrent edits are all kept.
    @discardableResult
    public func edit(_ change: (inout KeyFile) throws -> Void) throws -> Settings {
        let lock = try ConfigLock(configPath: path)
        defer { withExtendedLifetime(lock) {} }
        var file = try document()
        try change(&file)
        let settings: Settings
        do {
            settings = try Settings(KeyFile(parsing: file.text), path: path)
        } catch let error as KeyFile.ParseError {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
        try write(file.text)
        return settings
    }

    /// The file the config path finally names: a symlinked config is edited where it lives, and
    /// the link stays a link.
    public static func target(of path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = destination.hasPrefix("/") ? destination : directory(of: current) + "/" + destination
        }
        return current
    }

    package static func directory(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// Replaces the target atomically: a temporary file in the target's own folder (rename does
    /// not cross file systems), renamed over it. A new config is private (0600, its folder 0700);
    /// an existing one keeps the permissions its owner gave it.
    private func write(_ text: String) throws {
        let target = Self.target(of: path)
        var existing = stat()
        let mode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o600
        do {
            try PrivateFiles.makeFolder(Self.directory(of: target))
            try PrivateFiles.write(Array(text.utf8), to: target, mode: mode)
        } catch {
            throw ConfigError(path: path, line: 0, message: "cannot be written to \(target): \(error)")
        }
    }
}

/// The edits the CLI and the agent's D-Bus interface make, named once.
extension KeyFile {
    public mutating func setLimit(_ app: AppID, _ seconds: TimeInterval) {
        set(app.rawValue, to: DurationText.format(seconds), in: ConfigKey.limits)
    }

    public mutating func setDefaultLimit(_ seconds: TimeInterval) {
        set(ConfigKey.defaultLimit, to: DurationText.format(seconds), in: ConfigKey.limits)
    }

    @discardableResult
    public mutating func removeLimit(_ app: AppID) -> Bool { remove(app.rawValue, in: ConfigKey.limits) }

    /// Adds or removes an app from `important` or `essential`.
    public mutating func setExemption(_ kind: ExemptionKind, _ app: AppID, _ on: Bool) {
        var apps = KeyFileList.split(value(kind.rawValue, in: ConfigKey.exemptions) ?? "")
        apps.removeAll { $0 == app.rawValue }
        if on { apps.append(app.rawValue) }
        set(kind.rawValue, to: KeyFileList.join(apps), in: ConfigKey.exemptions)
    }
}
