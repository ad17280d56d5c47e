import AgentControl
import FoundationEssentials
import Logging
import PrivateFiles
import ScreenTimeCore
import SyncFolder

/// The synced folder (`screentime sync join`): this device's day written there when its use
/// changes (at most every `SyncSource.quietGap`, and every `SyncSource.countingInterval` while an
/// app is counted), and the other devices' days read when their files arrive (an inotify watch of
/// the folder and each device's folder), their use handed to the engine. The store stays the truth
/// for this device; nothing here waits but the small file's fsync.
final class SyncSource: LoopSource {
    /// The least time between two writes of the day: a burst of focus changes is one write.
    static let quietGap: TimeInterval = 1
    /// How often the day is written while an app is being counted.
    static let countingInterval: TimeInterval = 20
    /// How often the shared settings are looked at though nothing woke the source (a Cheat Day
    /// booked here changes the store, which no watch sees).
    static let settingsInterval: TimeInterval = 60

    private unowned(unsafe) let agent: AgentRunner
    private var watch: DirectoryWatch!
    private var membership: SyncMembership
    private var folder: SyncFolder?
    /// The engine's use and continues as last written: a change is written at the next gap.
    private var written: (day: CivilDate, usage: [AppID: TimeInterval], grants: Int)?
    private var lastWrite: Date?
    private var sequence: UInt64 = 0
    /// The other devices' day as last handed to the engine.
    private var imported: (day: CivilDate, usage: UsageElsewhere)?
    private var importDue = true
    private var lastReconcile: Date?
    /// Whether the folder was there at the last look (a folder mounted later is watched from the
    /// first write that finds it).
    private var folderWatched = false
    private var problemLogged: String?
    /// The days the folder held more of than the store, each logged once.
    private var keptFromFolder: Set<CivilDate> = []
    /// The shared settings, while joined.
    private var settings: SharedSettingsSync?
    /// Bytes written to the folder since the agent started, for `status`'s diagnostics.
    private(set) var bytesWritten = 0

    init(_ agent: AgentRunner) {
        self.agent = agent
        membership = SyncMembership.load(environment: agent.options.environment)
        watch = agent.fileWatches.watcher { [unowned self] now in
            filesChanged(now: now)
            serve(now: now)
        }
        // Made now, so that the watch of a join (`sync join` writes there) starts with the agent.
        try? PrivateFiles.makeFolder(XDGPaths.stateDirectory(environment: agent.options.environment))
        open(membership)
    }

    private func open(_ membership: SyncMembership) {
        folder = membership.folder.map(SyncFolder.init)
        settings = folder.map { [unowned agent] _ in
            SharedSettingsSync(configPath: agent.config.path, store: agent.store, device: membership.device, name: membership.name) {
                agent.modesChanged()
            }
        }
        written = nil
        imported = nil
        importDue = true
        rewatch()
    }

    /// The state folder (a join or leave by the CLI), the synced folder and the other devices' folders in it.
    private func rewatch() {
        // The state folder (a join or leave), the config's folder (a shared setting changed here).
        var directories: Set<String> = [XDGPaths.stateDirectory(environment: agent.options.environment),
                                        ConfigEditor.directory(of: ConfigEditor.target(of: agent.config.path))]
        // An unmounted folder is not watched (nor warned of at every turn); `sync status` says it is missing.
        folderWatched = folder?.exists ?? false
        if let folder, folder.exists {
            directories.insert(folder.root)
            for name in SyncFolderListing.names(in: folder.root) {
                guard let device = SyncFolderLayout.device(ofFolder: name), device != membership.device else { continue }
                directories.insert(folder.root + "/" + name)
            }
        }
        watch.watch(directories)
    }

    func nextDeadline(now: Date) -> Date? {
        guard folder != nil else { return nil }
        if importDue || agent.cheatDaysChangedHere || imported?.day != today() { return now }
        let reconcile = (lastReconcile ?? now).addingTimeInterval(Self.settingsInterval)
        return nextExport(now: now).map { min($0, reconcile) } ?? reconcile
    }

    /// When this device's day is next written: soon after its use or continues changed, every
    /// `countingInterval` while counting, at once on a new day.
    private func nextExport(now: Date) -> Date? {
        let engine = agent.engine
        guard let written, written.day == today() else { return now }
        let earliest = (lastWrite ?? .distantPast).addingTimeInterval(Self.quietGap)
        if written.usage != engine.usage || written.grants != grantCount(engine) { return max(now, earliest) }
        if engine.isCounting { return max(earliest, (lastWrite ?? now).addingTimeInterval(Self.countingInterval)) }
        return nil
    }

    private func grantCount(_ engine: Engine) -> Int { engine.grants.values.reduce(0) { $0 + $1.count } }

    /// A join or leave, a shared setting edited here, or another device's files.
    private func filesChanged(now: Date) {
        let reloaded = SyncMembership.load(environment: agent.options.environment)
        if reloaded.folder != membership.folder || reloaded.device != membership.device || reloaded.name != membership.name {
            if reloaded.folder != membership.folder { Log.info(reloaded.folder.map { "sync: joined \($0)" } ?? "sync: left the synced folder") }
            membership = reloaded
            open(reloaded)
            if folder == nil { agent.apply(agent.engine.useElsewhere(UsageElsewhere(), at: now)) }
        }
        importDue = true
        rewatch()
    }

    func handle(ready: [Int32], now: Date) { serve(now: now) }

    private func serve(now: Date) {
        guard let folder else { return }
        // A booking made or cancelled here goes to the others at once, as a shared setting edited in the config does.
        if agent.cheatDaysChangedHere {
            agent.cheatDaysChangedHere = false
            importDue = true
        }
        let day = today()
        if let due = nextExport(now: now), due <= now {
            if let previous = written?.day, previous != day { export(previous, to: folder, now: now) }
            export(day, to: folder, now: now)
        }
        if importDue || lastReconcile.map({ now >= $0.addingTimeInterval(Self.settingsInterval) }) ?? true {
            settings?.reconcile(with: folder, now: now)
            lastReconcile = now
        }
        if importDue || imported?.day != day {
            importDue = false
            let usage = folder.read(skipping: membership.device, days: day...day).usage(on: day)
            if imported?.day != day || imported?.usage != usage {
                imported = (day, usage)
                agent.apply(agent.engine.useElsewhere(usage, at: now))
            }
        }
    }

    private func today() -> CivilDate { agent.zone.localDate(of: agent.engine.dayStart) }

    /// Writes `day` from the store. What the folder already holds of it and this store does not
    /// (the store restored from a backup, or another computer writing with this id) is kept, so a
    /// write never takes time away from what the others count.
    private func export(_ day: CivilDate, to folder: SyncFolder, now: Date) {
        agent.flushUsage(now: now)
        let engine = agent.engine
        let dayStart = engine.settings.dayBoundary.start(ofDay: day, in: agent.zone)
        let dayEnd = engine.settings.dayBoundary.end(of: dayStart, in: agent.zone)
        do {
            let versions = folder.ownVersions(of: membership.device, name: membership.name, day: day)
            sequence = max(sequence, versions.map(\.sequence).max() ?? 0) + 1
            var deviceDay = try DayExport.day(day, from: dayStart, to: dayEnd, store: agent.store, device: membership.device,
                                              name: membership.name, sequence: sequence, written: now) { app in
                engine.settings.groups(of: engine.info(app)).map(\.rawValue)
            }
            for version in versions where !deviceDay.holds(version) {
                if keptFromFolder.insert(day).inserted {
                    Log.warning("sync: \(folder.root) holds more of \(day) than this computer's store (restored from a backup, or "
                                + "another computer uses this device's id): kept")
                }
                deviceDay = deviceDay.merged(with: version)
            }
            deviceDay.sequence = sequence
            bytesWritten += try folder.write(deviceDay)
            problemLogged = nil
            if !folderWatched {
                rewatch()
                importDue = true
            }
        } catch {
            if problemLogged != "\(error)" { Log.warning("sync: cannot write \(day): \(error)") }
            problemLogged = "\(error)"
        }
        lastWrite = now
        if day == today() { written = (day, engine.usage, grantCount(engine)) }
    }
}
