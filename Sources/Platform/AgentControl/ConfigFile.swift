import FoundationEssentials
import ScreenTimeCore

/// The config file read as the agent reads it, for the agent's watch and every CLI command.
public enum ConfigFile {
    /// Parses the file at `path`; the defaults when it does not exist.
    public static func settings(at path: String) throws -> Settings {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw ConfigError(path: path, line: 0, message: "cannot be read") }
            return Settings()
        }
        do {
            return try Settings(KeyFile(parsing: String(decoding: data, as: UTF8.self)), path: path)
        } catch let error as KeyFile.ParseError {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
    }
}
