import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// Starts what a card's launch button names, detached from the card (which exits right after):
/// an app as its desktop entry's `Exec=` says (an argument vector, never a shell), a link or file
/// with the default handler, music through a running MPRIS player or else the default handler.
public enum CardLauncher {
    /// Returns the started process's pid; 0 when a media player took the music.
    @discardableResult
    public static func launch(_ launch: CardLaunch, environment: [String: String]) throws -> Int32 {
        switch launch {
        case .desktopEntry(let id):
            return try ProcessShims.spawnDetached(arguments(forEntry: id, environment: environment), environment: environment)
        case .uri(let link):
            return try open(link, environment: environment)
        case .music(let playlist):
            if MprisPlayers.play(uri(playlist), busAddress: environment["DBUS_SESSION_BUS_ADDRESS"]) { return 0 }
            return try open(playlist, environment: environment)
        }
    }

    /// The argument vector of the installed entry `id`, its program resolved in PATH; a
    /// `Terminal=true` app in the user's terminal (`x-terminal-emulator -e`).
    static func arguments(forEntry id: String, environment: [String: String]) throws -> [String] {
        guard let path = DesktopEntryIndex.path(of: id, environment: environment) else { throw LaunchError.notInstalled(id: id) }
        guard let data = FileManager.default.contents(atPath: path) else { throw LaunchError.unreadable(path: path) }
        do {
            let entry = try DesktopEntryExec(id: id, path: path, text: String(decoding: data, as: UTF8.self))
            if let tryExec = entry.tryExec, executable(tryExec, environment: environment) == nil {
                throw LaunchError.tryExecMissing(entry: path, program: tryExec)
            }
            var arguments = try entry.arguments()
            arguments[0] = try resolved(arguments[0], environment: environment)
            return arguments
        } catch let error as DesktopEntryExecError {
            throw LaunchError.invalidEntry(error.description)
        }
    }

    /// Opens a link or file with the default handler: `xdg-open`, else `gio open`.
    static func open(_ link: String, environment: [String: String]) throws -> Int32 {
        if let xdgOpen = executable("xdg-open", environment: environment) {
            return try ProcessShims.spawnDetached([xdgOpen, link], environment: environment)
        }
        return try ProcessShims.spawnDetached([resolved("gio", environment: environment), "open", link], environment: environment)
    }

    static func resolved(_ program: String, environment: [String: String]) throws -> String {
        guard let path = executable(program, environment: environment) else {
            throw LaunchError.programNotFound(program: program, path: environment["PATH"] ?? "")
        }
        return path
    }

    /// `program` itself when it names a path, else the first executable of that name in PATH.
    static func executable(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return ProcessShims.isExecutable(program) ? program : nil }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(program)" }.first(where: ProcessShims.isExecutable)
    }

    /// A path as a `file://` URI (players take URIs); anything else as written.
    static func uri(_ item: String) -> String {
        guard item.hasPrefix("/") else { return item }
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
        return "file://" + item.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + hex($0) }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
