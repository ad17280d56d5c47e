import FoundationEssentials
import Glibc
import PrivateFiles
import ScreenTimeCore

/// Whether this computer shares its budget through a folder, and as which device: kept in
/// `$XDG_STATE_HOME/screentime/sync` on this computer only (the folder's path is local). The id
/// is made once and kept after leaving, so a computer that joins again is the same device.
public struct SyncMembership: Equatable, Sendable {
    public var folder: String?
    public var device: SyncDeviceID
    public var name: String

    public init(folder: String?, device: SyncDeviceID, name: String) {
        self.folder = folder
        self.device = device
        self.name = name
    }

    public static func path(environment: [String: String]) -> String {
        XDGPaths.stateDirectory(environment: environment) + "/sync"
    }

    /// As stored; a new id (not yet stored) and the host's name when nothing is.
    public static func load(environment: [String: String]) -> SyncMembership {
        var membership = SyncMembership(folder: nil, device: SyncDeviceID(randomBits: SyncFileShims.randomBits()), name: hostName())
        guard let text = SyncFileShims.text(of: path(environment: environment)) else { return membership }
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = String(line[line.index(after: equals)...])
            switch line[..<equals] {
            case "folder": membership.folder = value.isEmpty ? nil : value
            case "device": if let id = SyncDeviceID(value) { membership.device = id }
            case "name": if !value.isEmpty { membership.name = value }
            default: break
            }
        }
        return membership
    }

    public func save(environment: [String: String]) throws {
        let directory = XDGPaths.stateDirectory(environment: environment)
        try PrivateFiles.makeFolder(directory)
        let text = "folder=\(folder ?? "")\ndevice=\(device.rawValue)\nname=\(name)\n"
        try PrivateFiles.write(Array(text.utf8), to: Self.path(environment: environment))
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "computer" }
        let name = String(cString: buffer)
        return name.isEmpty ? "computer" : name
    }
}
