import Glibc
import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// `sync join PATH`: from now on this computer's limits count the time of every computer joined
/// to the folder, and its own time is written there for them.
struct SyncJoinCommand: Subcommand {
    static let name = "sync join"
    static let abstract = "Join a synced folder"
    static let usage = ["sync join PATH [--name NAME]"]

    let path: String
    let deviceName: String?

    init(_ arguments: Arguments) throws {
        deviceName = try arguments.option("name")
        path = try arguments.next("PATH (the folder your sync engine keeps the same on each computer)")
        try arguments.finish()
        if let deviceName, deviceName.isEmpty || deviceName.contains(where: \.isNewline) {
            throw UsageError(message: "--name needs a name for this computer, on one line")
        }
    }

    func run(_ context: Context) throws {
        let folder = Self.absolute(XDGPaths.expandingHome(path, environment: context.environment))
        guard SyncFolder(root: folder).exists else {
            throw CommandFailure(message: "\(folder) is not a folder: make it (or let your sync engine make it), then join it")
        }
        var membership = context.syncMembership
        if let deviceName { membership.name = deviceName }
        let others = SyncFolder(root: folder).read(skipping: membership.device, days: nil).sortedDevices
        membership.folder = folder
        do { try membership.save(environment: context.environment) } catch {
            throw CommandFailure(message: "cannot keep the join in \(SyncMembership.path(environment: context.environment)): \(error)")
        }
        context.print("Joined \(folder) as \(membership.name) (device \(membership.device)).")
        context.print(others.isEmpty ? "No other computer has written there yet: join the same folder on each of them."
                                     : "Counting with " + others.map(\.name).joined(separator: ", ") + ".")
        if others.contains(where: { $0.name == membership.name }) {
            context.print("Another computer there is named \(membership.name) too: give this one its own with --name.")
        }
    }

    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(cString: buffer)
        return path == "." ? cwd : cwd + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
