import AgentControl
import FoundationEssentials
import Logging
import ScreenTimeCore
import SyncFolder
import UsageStore

/// The shared settings through the synced folder: a change of a shared key in this computer's
/// config (by hand or by the CLI) is stamped and written to this device's view; the others' views
/// are merged (the later stamp wins each key, then the greater device id), and what won elsewhere
/// is written into this config, which the config watch then applies as any edit. Cheat Day
/// bookings go the same way, between the stores.
final class SharedSettingsSync {
    private let configPath: String
    private let store: UsageDatabase
    /// Called when another computer's booking or cancellation was taken into the store.
    private let cheatDaysChanged: () -> Void
    /// This device's view: what it set and what it took, as last written to the folder.
    private var view: SettingsChanges
    private var loaded = false

    init(configPath: String, store: UsageDatabase, device: SyncDeviceID, name: String, cheatDaysChanged: @escaping () -> Void) {
        self.configPath = configPath
        self.store = store
        self.cheatDaysChanged = cheatDaysChanged
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
        var current = SharedSettingKey.values(of: file)
        let bookings = (try? store.cheatDays(includingCancelled: true)) ?? []
        for booking in bookings where booking.cancelledAt == nil {
            current[SharedSettingKey(section: SharedSettingKey.cheatDaySection, key: booking.id)] =
                "\(Int64(booking.start.timeIntervalSince1970)) \(Int64(booking.bookedAt.timeIntervalSince1970))"
        }
        var stamp = max(Int64((now.timeIntervalSince1970 * 1000).rounded()),
                        SettingsChanges.latestStamp([view.settings] + others.map(\.settings)) + 1)
        for key in Set(current.keys).union(view.settings.keys).sorted() where current[key] != view.settings[key]?.value {
            // A booking is made or cancelled, never changed: two that differ under one id stay as
            // each store has them (the warning said so), or the two computers would outbid each other.
            if !key.isInConfig, current[key] != nil, view.settings[key]?.value != nil { continue }
            view.settings[key] = StampedSetting(stamp: firstJoin ? 0 : stamp, device: view.device, value: current[key])
            stamp += 1
        }
        // What won elsewhere.
        let merged = SettingsChanges.merged([view.settings] + others.map(\.settings))
        let taken = merged.filter { key, setting in view.settings[key] != setting }
        // Only values that differ from this config's are written into it (the same value won
        // under another stamp changes nothing here).
        let changed = taken.filter { key, setting in setting.value != current[key] }
        let changedConfig = changed.filter { $0.key.isInConfig }
        do {
            if !changedConfig.isEmpty {
                try ConfigEditor(path: configPath).edit { file in
                    for (key, setting) in changedConfig {
                        if let value = setting.value { file.set(key.key, to: value, in: key.section) } else { file.remove(key.key, in: key.section) }
                    }
                }
                Log.info("sync: settings from the other computers: " + changedConfig.keys.sorted().map(\.description).joined(separator: ", "))
            }
            let changedBookings = changed.filter { !$0.key.isInConfig }
            for (key, setting) in changedBookings.sorted(by: { $0.key < $1.key }) { try take(booking: key.key, setting.value, among: bookings, now: now) }
            if !changedBookings.isEmpty { cheatDaysChanged() }
            for (key, setting) in taken { view.settings[key] = setting }
        } catch {
            Log.warning("sync: the other computers' settings cannot be taken into \(configPath): \(error)")
        }
        if view.settings != before || own.isEmpty {
            do { try folder.write(view) } catch { Log.warning("sync: cannot write the shared settings: \(error)") }
        }
    }

    /// Another computer's Cheat Day booking (`START BOOKED`) or its cancellation (nil), into the
    /// store: booked when it was booked there, so the 12 hours' notice counts from then.
    private func take(booking id: String, _ value: String?, among bookings: [StoredCheatDay], now: Date) throws {
        let stored = bookings.first { $0.id == id }
        guard let value else {
            if stored?.cancelledAt == nil, stored != nil {
                try store.cancelCheatDay(id: id, at: now)
                Log.info("sync: Cheat Day \(id) cancelled on another computer")
            }
            return
        }
        let fields = value.split(separator: " ").compactMap { Double($0) }
        guard fields.count == 2 else { return Log.warning("sync: another computer's Cheat Day \(id) is unreadable (`\(value)`): skipped") }
        guard stored == nil else {
            return Log.warning("sync: Cheat Day \(id) was booked here and on another computer differently: this one's kept")
        }
        try store.insertCheatDay(id: id, start: Date(timeIntervalSince1970: fields[0]), bookedAt: Date(timeIntervalSince1970: fields[1]))
        Log.info("sync: Cheat Day \(id) booked on another computer")
    }
}
