import Agent
import Glibc
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// What every command works with: the environment, the user's files and the terminal.
struct Context {
    let environment = ProcessInfo.processInfo.environment
    var configPath: String { XDGPaths.configFile(environment: environment) }
    var databasePath: String { XDGPaths.databaseFile(environment: environment) }
    var zone: LocalTimeZone { SystemTimeZone() }

    func print(_ text: String) {
        fputs(text.hasSuffix("\n") ? text : text + "\n", stdout)
    }

    /// The width of the terminal standard output goes to; nil when it goes elsewhere.
    var terminalColumns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    func printError(_ text: String) {
        fputs(text.hasSuffix("\n") ? text : text + "\n", stderr)
    }

    /// The settings in force: the config file's, or a usage error naming its broken line.
    func settings() throws -> Settings {
        do { return try ConfigSource.settings(at: configPath) } catch let error as ConfigError {
            throw CommandFailure(message: error.description)
        }
    }

    func editConfig(_ change: (inout KeyFile) throws -> Void) throws {
        do { try ConfigEditor(path: configPath).edit(change) } catch let error as ConfigError {
            throw CommandFailure(message: error.description)
        }
    }
}
