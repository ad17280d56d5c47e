import AgentControl
import SystemErrors
import Glibc
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// What every command works with: the environment, the user's files and the terminal.
package struct Context {
    package let environment = ProcessInfo.processInfo.environment
    package var configPath: String { XDGPaths.configFile(environment: environment) }
    package var databasePath: String { XDGPaths.databaseFile(environment: environment) }
    package var zone: LocalTimeZone { SystemTimeZone() }

    /// The command's "now", the only clock a command reads (once, or once per line it follows):
    /// the wall clock, or `SCREENTIME_NOW` (seconds since 1970) when set, so that a test's "today"
    /// is a day it recorded and its commitments are dated by it. `checkNow()` refuses a malformed one
    /// before any command runs.
    package var now: Date {
        environment["SCREENTIME_NOW"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
    }

    package func checkNow() throws {
        if let text = environment["SCREENTIME_NOW"], Double(text) == nil {
            throw UsageError(message: "SCREENTIME_NOW=\(text) is not a number of seconds since 1970")
        }
    }

    /// Text for a person: what came from outside is shown, never sent to the terminal as control
    /// characters (`TerminalText`).
    package func print(_ text: String) {
        printVerbatim(TerminalText.printable(text))
    }

    /// JSON and CSV, whose strings stay faithful, and text whose outside strings are already
    /// printable (a report in colour).
    package func printVerbatim(_ text: String) {
        StandardStream.output.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// The width of the terminal standard output goes to; nil when it goes elsewhere.
    package var terminalColumns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    package func printError(_ text: String) {
        let text = TerminalText.printable(text)
        StandardStream.error.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// The settings in force: the config file's, or a usage error naming its broken line.
    package func settings() throws -> Settings {
        do { return try ConfigFile.settings(at: configPath) } catch let error as ConfigError {
            throw CommandFailure(message: error.description)
        }
    }

    /// Edits the config file; returns the loosenings the edit left waiting (Context+Commitment).
    @discardableResult
    package func editConfig(_ change: (inout KeyFile) throws -> Void) throws -> [PendingChange] {
        let before = try? settings()
        let wanted: Settings
        do { wanted = try ConfigEditor(path: configPath).edit(change) } catch let error as ConfigError {
            throw CommandFailure(message: error.description)
        }
        return keep(wanted, judgedAgainst: before)
    }
}
