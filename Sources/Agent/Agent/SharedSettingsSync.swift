import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// The shared settings through the synced folder: a change of a shared key in this computer's
/// config (by hand or by the CLI) is stamped and written to this device's view; the others' views
/// are merged (the later stamp wins each key, then the greater device id), and what won elsewhere
/// is written into this config, which the config watch then applies as any edit.
final class SharedSettingsSync {
    private let configPath: String
    /// This device's view: what it set and what it took, as last written to the folder.
    private var view: SettingsChanges
    private var loaded = false

    init(configPath: String, device: SyncDeviceID, name: String) {
        self.configPath = configPath
        view = SettingsChanges(device: device, name: name)
    }

    /// Brings this config and the folder's views together at `now`.
    func reconcile(with folder: SyncFolder, now: Date) {
        let (views, _) = folder.settingsViews()
        let own = views.filter { $0.device == view.device }
        let others = views.filter { $0.device != view.device }
        if !loaded {
            loaded = true
            // What this device wrote before (also in conflict copies of its file).
            view.settings = SettingsChanges.merged([view.settings] + own.map(\.settings))
        }
        let firstJoin = own.isEmpty && view.settings.isEmpty
        let before = view.settings
        // A config that does not parse is the config watch's to report; nothing is shared from it.
        guard let file = try? ConfigEditor(path: configPath).document() else { return }
        // This computer's own changes since the last look. A config as it was when first joining
        // is stamped 0: the folder's settings, where there are any, come first.
        let current = SharedSettingKey.values(of: file)
        var stamp = max(Int64((now.timeIntervalSince1970 * 1000).rounded()),
                        SettingsChanges.latestStamp([view.settings] + others.map(\.settings)) + 1)
        for key in Set(current.keys).union(view.settings.keys).sorted() where current[key] != view.settings[key]?.value {
            view.settings[key] = StampedSetting(stamp: firstJoin ? 0 : stamp, device: view.device, value: current[key])
            stamp += 1
        }
        // What won elsewhere.
        let merged = SettingsChanges.merged([view.settings] + others.map(\.settings))
        let taken = merged.filter { key, setting in view.settings[key] != setting }
        // Only values that differ from this config's are written into it (the same value won
        // under another stamp changes nothing here).
        let changed = taken.filter { key, setting in setting.value != current[key] }
        do {
            if !changed.isEmpty {
                try ConfigEditor(path: configPath).edit { file in
                    for (key, setting) in changed {
                        if let value = setting.value { file.set(key.key, to: value, in: key.section) } else { file.remove(key.key, in: key.section) }
                    }
                }
                Log.info("sync: settings from the other computers: " + changed.keys.sorted().map(\.description).joined(separator: ", "))
            }
            for (key, setting) in taken { view.settings[key] = setting }
        } catch {
            Log.warning("sync: the other computers' settings cannot be taken into \(configPath): \(error)")
        }
        if view.settings != before || own.isEmpty {
            do { try folder.write(view) } catch { Log.warning("sync: cannot write the shared settings: \(error)") }
        }
    }
}
