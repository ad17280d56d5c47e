import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// The user's own do-not-disturb state, on disk before the agent first changes it, one file per
/// server in `$XDG_STATE_HOME/screentime/` (`notifications-saved-dunst`): GNOME's and xfce's
/// settings outlive a logout, so the runtime folder would forget what a killed agent left.
/// Given back and deleted when the silence ends, at exit, or at the next start.
struct SavedNotificationState {
    let path: String

    init(environment: [String: String], server: String) {
        let key = String(server.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        path = XDGPaths.stateDirectory(environment: environment) + "/notifications-saved-" + key
    }

    func write(_ state: String) throws {
        do {
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            try PrivateFiles.makeFolder(directory)
            try PrivateFiles.write(Array((state + "\n").utf8), to: path)
        } catch {
            throw DoNotDisturbError("saved state", "cannot write \(path)", error)
        }
    }

    /// The saved state; nil when there is none.
    func read() -> String? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return String(String(decoding: data, as: UTF8.self).prefix { $0 != "\n" })
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
