import FoundationEssentials
import ScreenTimeCore
import SyncFolder

/// The report across joined computers (`screentime sync`): this computer's store, and the other
/// computers' days from the synced folder, each hour's total of theirs counted as from the hour's start.
struct ReportDevices {
    let membership: SyncMembership
    let reading: SyncFolderReading?
    /// `--device NAME` (a name or an id): that computer alone.
    let only: String?

    /// Reads the folder's files of the days a report of `range` reads: its own and the period
    /// before it, which it compares with.
    init(context: Context, only: String?, reporting range: ReportRange, boundary: DayBoundary, zone: LocalTimeZone) throws {
        let days = range.previous(boundary: boundary, zone: zone).days[0]...range.days.last!
        let membership = context.syncMembership
        self.membership = membership
        self.only = only
        let folder = membership.folder.map(SyncFolder.init)
        reading = folder.flatMap { $0.exists ? $0.read(skipping: membership.device, days: days) : nil }
        if let only, !includesThisComputer, others.isEmpty {
            let everyDay = folder.flatMap { $0.exists ? $0.read(skipping: membership.device) : nil }
            let known = [membership.name] + (everyDay?.sortedDevices.map(\.name) ?? [])
            throw UsageError(message: "no computer named \(only) (known: \(known.joined(separator: ", ")))")
        }
    }

    var isJoined: Bool { reading != nil }

    var includesThisComputer: Bool { only.map { $0 == membership.name || $0 == membership.device.rawValue } ?? true }

    var others: [SyncFolderReading.Device] {
        (reading?.sortedDevices ?? []).filter { device in only.map { $0 == device.name || $0 == device.id.rawValue } ?? true }
    }

    /// The other computers' time in `range`, as intervals in start order.
    func intervals(in range: ReportRange, boundary: DayBoundary, zone: LocalTimeZone) -> [UsageReport.Interval] {
        var intervals: [UsageReport.Interval] = []
        for device in others {
            for day in range.days {
                guard let deviceDay = device.days[day] else { continue }
                let start = boundary.start(ofDay: day, in: zone)
                for (app, hours) in deviceDay.apps {
                    for hour in DeviceDay.hours where hours[hour] > 0 {
                        let from = start.addingTimeInterval(Double(hour) * 3600)
                        intervals.append(UsageReport.Interval(app: app, start: from, end: from.addingTimeInterval(Double(hours[hour]) / 1000)))
                    }
                }
            }
        }
        return intervals.sorted { ($0.start, $0.app) < ($1.start, $1.app) }
    }

    /// Each computer's time in `range` (this one's `here`), for the report's Computers section.
    func shares(in range: ReportRange, here: [String: TimeInterval]) -> [UsageReport.Share] {
        var shares: [UsageReport.Share] = []
        if includesThisComputer {
            shares.append(UsageReport.Share(name: membership.name + " (this computer)", seconds: here.values.reduce(0, +), days: here))
        }
        for device in others {
            var days: [String: TimeInterval] = [:]
            for day in range.days { if let deviceDay = device.days[day] { days[day.description] = deviceDay.total } }
            shares.append(UsageReport.Share(name: device.name, seconds: days.values.reduce(0, +), days: days))
        }
        return shares.sorted { ($0.seconds, $1.name) > ($1.seconds, $0.name) }
    }
}
