import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// `screentime sync join|leave|status`: one budget across a person's computers, through a folder a
/// sync engine keeps the same on each (Syncthing, Nextcloud, Dropbox). Each action is its own file.
struct SyncCommand: Subcommand {
    static let name = "sync"
    static let abstract = "Share one budget across your computers through a synced folder (Syncthing, Nextcloud…)"
    static let usage = ["sync join PATH [--name NAME]", "sync leave", "sync status"]
    static let notes = ["Each computer writes only its own files in PATH and reads the others'; the agent picks",
                        "a change up at once. Run `sync join` with the same folder on every computer."]

    let action: Subcommand

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (join, leave, status)") {
        case "join": action = try SyncJoinCommand(arguments)
        case "leave": action = try SyncLeaveCommand(arguments)
        case "status": action = try SyncStatusCommand(arguments)
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
    }

    func run(_ context: Context) throws { try action.run(context) }
}

extension Context {
    /// This computer's membership of a synced folder (an id made on first use, not yet stored).
    var syncMembership: SyncMembership { SyncMembership.load(environment: environment) }
}
