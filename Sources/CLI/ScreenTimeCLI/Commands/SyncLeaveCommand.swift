import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// `sync leave`: this computer counts its own time only again; its history stays in its store.
struct SyncLeaveCommand: Subcommand {
    static let name = "sync leave"
    static let abstract = "Leave the synced folder"
    static let usage = ["sync leave"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        var membership = context.syncMembership
        guard let folder = membership.folder else { return context.print("Not joined to a synced folder.") }
        membership.folder = nil
        do { try membership.save(environment: context.environment) } catch {
            throw CommandFailure(message: "cannot keep the change in \(SyncMembership.path(environment: context.environment)): \(error)")
        }
        let own = SyncFolderLayout.deviceFolderName(id: membership.device, name: membership.name)
        context.print("Left \(folder): limits count this computer's time only. Its days stay in the folder for the others' "
                      + "reports (remove \(own) there to take them out).")
    }
}
