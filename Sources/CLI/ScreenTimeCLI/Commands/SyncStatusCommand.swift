import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// `sync status`: the folder, the computers in it, when each last wrote, today's time of each,
/// and what the user should know (damaged files, conflict copies, one id on two computers).
struct SyncStatusCommand: Subcommand {
    static let name = "sync status"
    static let abstract = "The synced folder's computers and problems"
    static let usage = ["sync status"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let membership = context.syncMembership
        guard let root = membership.folder else {
            return context.print("Not joined to a synced folder (screentime sync join PATH).")
        }
        let settings = try context.settings()
        let zone = context.zone
        let now = context.now
        let today = CivilDate(parsing: settings.dayBoundary.label(of: now, in: zone))!
        context.print(SyncStatusText.lines(root: root, membership: membership, today: today, now: now, zone: zone,
                                           todayHere: try Self.todayHere(context, settings, now: now)).joined(separator: "\n"))
    }

    /// This computer's time today, from its store.
    static func todayHere(_ context: Context, _ settings: Settings, now: Date) throws -> TimeInterval {
        let start = settings.dayBoundary.start(of: now, in: context.zone)
        return try context.openStore()?.usageByApp(from: start, to: settings.dayBoundary.end(of: now, in: context.zone)).values.reduce(0, +) ?? 0
    }
}

/// What `sync status` and `doctor` say of the synced folder.
package enum SyncStatusText {
    static func lines(root: String, membership: SyncMembership, today: CivilDate, now: Date, zone: LocalTimeZone,
                      todayHere: TimeInterval) -> [String] {
        let folder = SyncFolder(root: root)
        guard folder.exists else { return ["Synced folder: \(root) is missing (unmounted, or removed?): counting this computer alone."] }
        let reading = folder.read()
        var lines = ["Synced folder: \(root)",
                     "This computer: \(membership.name) (device \(membership.device)), today \(DurationText.format(todayHere))"]
        let others = reading.sortedDevices.filter { $0.id != membership.device }
        if others.isEmpty { lines.append("No other computer has written there yet.") }
        for device in others {
            let last = device.lastWritten.map { "last wrote \(zone.formatMinute($0))" } ?? "never wrote"
            let time = device.days[today].map { DurationText.format($0.total) } ?? DurationText.format(0)
            lines.append("  \(device.name) (device \(device.id)): \(last), today \(time)")
        }
        lines += problems(reading, own: membership.device, now: now, zone: zone)
        return lines
    }

    /// How far ahead of this computer's clock another's may write before it is named: more than a
    /// sync engine's delay could explain in the other direction, less than anything a user notices.
    static let clockTolerance: TimeInterval = 120

    static func problems(_ reading: SyncFolderReading, own: SyncDeviceID, now: Date, zone: LocalTimeZone) -> [String] {
        var lines: [String] = []
        // A file arrives after it was written: one dated later than now here was dated by a clock ahead.
        for device in reading.sortedDevices where device.id != own {
            guard let written = device.lastWritten, written.timeIntervalSince(now) > clockTolerance else { continue }
            lines.append("Problem: \(device.name)'s clock is at least \(DurationText.format(written.timeIntervalSince(now))) ahead of this "
                         + "computer's (it wrote at \(zone.formatMinute(written)); it is \(zone.formatMinute(now)) here): a setting it changes "
                         + "wins over a later change here until the clocks agree. Turn on network time on both (timedatectl set-ntp true).")
        }
        for device in reading.sortedDevices where !device.clashingDays.isEmpty {
            let whose = device.id == own ? "this computer's id (\(own))" : "\(device.name)'s id (\(device.id))"
            lines.append("Problem: two computers write with \(whose), on \(device.clashingDays.map(\.description).joined(separator: ", ")) "
                         + "(a cloned disk?): counted once. On one of them, remove ~/.local/state/screentime/sync and join again.")
        }
        for damaged in reading.damaged {
            lines.append("Problem: \(damaged.path) is damaged (\(damaged.reason)): not counted until its computer writes it again.")
        }
        if !reading.conflictCopies.isEmpty {
            let count = reading.conflictCopies.count
            lines.append("Note: the sync engine made \(count) conflict \(count == 1 ? "copy" : "copies"): counted once, with the \(count == 1 ? "file it copies" : "files they copy").")
        }
        return lines
    }
}

extension SyncStatusText {
    /// `doctor`'s line of the synced folder: the computers joined, when each last wrote, and the
    /// problems found (each a line of its own).
    package static func doctorFinding(environment: [String: String], now: Date, zone: LocalTimeZone) -> (ok: Bool, detail: String, problems: [String]) {
        let membership = SyncMembership.load(environment: environment)
        guard let root = membership.folder else { return (true, "not joined (screentime sync join PATH)", []) }
        let folder = SyncFolder(root: root)
        guard folder.exists else { return (false, "\(root) is missing (unmounted, or removed?): counting this computer alone", []) }
        let reading = folder.read()
        let others = reading.sortedDevices.filter { $0.id != membership.device }.map { device in
            device.name + (device.lastWritten.map { " (last wrote \(zone.formatMinute($0)))" } ?? "")
        }
        let problems = problems(reading, own: membership.device, now: now, zone: zone)
        let detail = "\(root) as \(membership.name)" + (others.isEmpty ? "; no other computer has written there yet" : " with " + others.joined(separator: ", "))
        return (!problems.contains { $0.hasPrefix("Problem") }, detail, problems)
    }
}
