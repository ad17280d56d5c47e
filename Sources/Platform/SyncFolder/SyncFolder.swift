import FoundationEssentials
import ScreenTimeCore

/// The synced folder on this computer: a folder per device, each device writing only its own.
public struct SyncFolder: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    /// Every device folder's day files (only those of `days` when given, and not `skipping`'s),
    /// read as they are now.
    public func files(days: ClosedRange<CivilDate>? = nil, skipping own: SyncDeviceID? = nil) -> [SyncFolderFile] {
        var files: [SyncFolderFile] = []
        for folder in SyncFileShims.names(in: root) ?? [] {
            guard let device = SyncFolderLayout.device(ofFolder: folder), device != own else { continue }
            for name in SyncFileShims.names(in: root + "/" + folder) ?? [] {
                if SyncFolderLayout.isInTransit(name) {
                    files.append(SyncFolderFile(folder: folder, name: name, text: nil))
                    continue
                }
                guard let (day, _) = SyncFolderLayout.day(ofFile: name), days.map({ $0.contains(day) }) ?? true else { continue }
                files.append(SyncFolderFile(folder: folder, name: name, text: SyncFileShims.text(of: root + "/" + folder + "/" + name)))
            }
        }
        return files
    }

    public func read(skipping own: SyncDeviceID? = nil, days: ClosedRange<CivilDate>? = nil) -> SyncFolderReading {
        SyncFolderReading(files(days: days, skipping: own), skipping: own, days: days)
    }

    /// Whether the folder is there to be written in.
    public var exists: Bool { SyncFileShims.isDirectory(root) }

    /// This device's folder (made when missing) and the name it has now; a device renamed keeps
    /// its old folder, found by its id.
    public func folder(of device: SyncDeviceID, name: String) throws -> String {
        guard exists else { throw SyncFolderError(path: root, reason: "is not there (unmounted, or removed?)") }
        let existing = (SyncFileShims.names(in: root) ?? []).filter { SyncFolderLayout.device(ofFolder: $0) == device }.sorted().first
        let folder = existing ?? SyncFolderLayout.deviceFolderName(id: device, name: name)
        try SyncFileShims.makeFolder(root + "/" + folder)
        return folder
    }

    /// The versions of `device`'s `day` in its own folder (its file and any conflict copies of it).
    public func ownVersions(of device: SyncDeviceID, name: String, day: CivilDate) -> [DeviceDay] {
        guard let folder = try? folder(of: device, name: name) else { return [] }
        return (SyncFileShims.names(in: root + "/" + folder) ?? []).compactMap { file in
            guard SyncFolderLayout.day(ofFile: file)?.day == day, let text = SyncFileShims.text(of: root + "/" + folder + "/" + file) else { return nil }
            return try? DeviceDay.parse(text)
        }
    }

    /// Writes `day` as its device's file of that day, replacing the last (durably and atomically).
    /// Returns the bytes written.
    @discardableResult
    public func write(_ day: DeviceDay) throws -> Int {
        let folder = try folder(of: day.device, name: day.name)
        let bytes = Array(day.encoded().utf8)
        try SyncFileShims.replaceDurably(root + "/" + folder + "/" + SyncFolderLayout.dayFileName(day.day), with: bytes)
        return bytes.count
    }
}

/// The names in a folder, for those who watch the synced folder's device folders.
public enum SyncFolderListing {
    public static func names(in directory: String) -> [String] { SyncFileShims.names(in: directory) ?? [] }
}

extension SyncFolder {
    /// Every device's view of the shared settings (its file and any conflict copies of it, each
    /// a view: they merge like the rest), and the files that could not be read.
    public func settingsViews() -> (views: [SettingsChanges], damaged: [SyncFolderReading.Damaged]) {
        var views: [SettingsChanges] = []
        var damaged: [SyncFolderReading.Damaged] = []
        for folder in SyncFileShims.names(in: root) ?? [] {
            guard let device = SyncFolderLayout.device(ofFolder: folder) else { continue }
            for name in SyncFileShims.names(in: root + "/" + folder) ?? [] where SyncFolderLayout.isSettingsFile(name).0 {
                let path = folder + "/" + name
                guard let text = SyncFileShims.text(of: root + "/" + path) else {
                    damaged.append(.init(path: path, reason: "cannot be read"))
                    continue
                }
                do {
                    let view = try SettingsChanges.parse(text)
                    guard view.device == device else {
                        damaged.append(.init(path: path, reason: "holds \(view.device)'s settings, not this folder's"))
                        continue
                    }
                    views.append(view)
                } catch {
                    damaged.append(.init(path: path, reason: error.description))
                }
            }
        }
        return (views, damaged)
    }

    /// Writes this device's view of the shared settings, replacing the last (durably and atomically).
    public func write(_ changes: SettingsChanges) throws {
        let folder = try folder(of: changes.device, name: changes.name)
        try SyncFileShims.replaceDurably(root + "/" + folder + "/" + SyncFolderLayout.settingsFileName, with: Array(changes.encoded().utf8))
    }
}
