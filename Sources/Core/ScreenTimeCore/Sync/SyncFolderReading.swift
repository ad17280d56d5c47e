import FoundationEssentials

/// A file found in the synced folder: in which device's folder, its name, and its text (nil when
/// it could not be read).
public struct SyncFolderFile: Sendable {
    public var folder: String
    public var name: String
    public var text: String?

    public init(folder: String, name: String, text: String?) {
        self.folder = folder
        self.name = name
        self.text = text
    }

    public var path: String { folder + "/" + name }
}

/// What the synced folder holds, read and merged: each device's days (every version of a day,
/// conflict copies too, merged so that nothing counts twice), and what the user should know of:
/// damaged files, conflict copies, one id written by two computers.
public struct SyncFolderReading: Sendable {
    public struct Device: Sendable {
        public var id: SyncDeviceID
        /// The name of its latest write.
        public var name: String
        public var days: [CivilDate: DeviceDay] = [:]
        /// Its latest write, on its own clock.
        public var lastWritten: Date?
        /// Versions of one day that neither holds the other: two computers write with this id.
        public var clashingDays: [CivilDate] = []
    }

    public struct Damaged: Sendable, Equatable {
        public var path: String
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public var devices: [SyncDeviceID: Device] = [:]
    public var damaged: [Damaged] = []
    public var conflictCopies: [String] = []
    /// Files a sync engine is still writing.
    public var inTransit = 0

    public init() {}

    /// Reads `files` (of every device, or only of `days` when given); this device's own (`skipping`)
    /// are left out, its store being the truth for it.
    public init(_ files: [SyncFolderFile], skipping own: SyncDeviceID? = nil, days: ClosedRange<CivilDate>? = nil) {
        var versions: [SyncDeviceID: [CivilDate: [DeviceDay]]] = [:]
        for file in files {
            guard let folderDevice = SyncFolderLayout.device(ofFolder: file.folder), folderDevice != own else { continue }
            if SyncFolderLayout.isInTransit(file.name) { inTransit += 1; continue }
            guard let (day, isConflictCopy) = SyncFolderLayout.day(ofFile: file.name) else { continue }
            if let days, !days.contains(day) { continue }
            if isConflictCopy { conflictCopies.append(file.path) }
            guard let text = file.text else { damaged.append(Damaged(path: file.path, reason: "cannot be read")); continue }
            do {
                let version = try DeviceDay.parse(text)
                guard version.device == folderDevice, version.day == day else {
                    damaged.append(Damaged(path: file.path, reason: "holds \(version.device)'s \(version.day), not this folder's \(day)"))
                    continue
                }
                versions[folderDevice, default: [:]][day, default: []].append(version)
            } catch {
                damaged.append(Damaged(path: file.path, reason: error.description))
            }
        }
        for (id, days) in versions {
            var device = Device(id: id, name: "")
            var latest: DeviceDay?
            for (day, dayVersions) in days {
                var merged = dayVersions[0]
                for version in dayVersions.dropFirst() { merged = merged.merged(with: version) }
                if !dayVersions.contains(where: { $0.holds(merged) }) { device.clashingDays.append(day) }
                device.days[day] = merged
                for version in dayVersions where latest.map({ (version.sequence, version.written) > ($0.sequence, $0.written) }) ?? true {
                    latest = version
                }
            }
            device.name = latest?.name ?? id.rawValue
            device.lastWritten = latest?.written
            device.clashingDays.sort()
            devices[id] = device
        }
        damaged.sort { $0.path < $1.path }
        conflictCopies.sort()
    }

    /// The devices by name, then id: the order every list of them is shown in.
    public var sortedDevices: [Device] { devices.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }

    /// Every other device's use on `day`, summed across devices: what the engine adds to this one's.
    public func usage(on day: CivilDate) -> UsageElsewhere {
        // Summed in milliseconds, so the figure is the same whatever order the devices come in.
        var apps: [AppID: Int64] = [:]
        var groups: [String: Int64] = [:]
        for device in devices.values {
            guard let deviceDay = device.days[day] else { continue }
            for (app, hours) in deviceDay.apps { apps[app, default: 0] += hours.total }
            for (group, hours) in deviceDay.groups { groups[group, default: 0] += hours.total }
        }
        return UsageElsewhere(apps: apps.mapValues { Double($0) / 1000 }, groups: groups.mapValues { Double($0) / 1000 })
    }
}

/// The use of the other joined devices today: the engine counts it with its own toward limits.
public struct UsageElsewhere: Equatable, Sendable {
    public var apps: [AppID: TimeInterval]
    /// Per group, by the group's name (`AppGroup`'s raw value).
    public var groups: [String: TimeInterval]

    public init(apps: [AppID: TimeInterval] = [:], groups: [String: TimeInterval] = [:]) {
        self.apps = apps
        self.groups = groups
    }
}
