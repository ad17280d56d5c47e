import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// This device's day as the synced folder holds it, from the store: each interval's time split
/// into the hours it covers (counted from the day's start), its groups as this device places the app.
public enum DayExport {
    public static func day(_ label: CivilDate, from dayStart: Date, to dayEnd: Date, store: UsageDatabase,
                           device: SyncDeviceID, name: String, sequence: UInt64, written: Date,
                           groups: (AppID) -> [String]) throws -> DeviceDay {
        var day = DeviceDay(device: device, name: name, sequence: sequence, written: written, day: label)
        var groupsOf: [AppID: [String]] = [:]
        for interval in try store.intervals(from: dayStart, to: dayEnd) {
            let appGroups = groupsOf[interval.app] ?? groups(interval.app)
            groupsOf[interval.app] = appGroups
            var start = interval.start
            while start < interval.end {
                let hour = Int(start.timeIntervalSince(dayStart) / 3600)
                let hourEnd = min(interval.end, dayStart.addingTimeInterval(Double(hour + 1) * 3600))
                day.add(Int64((hourEnd.timeIntervalSince(start) * 1000).rounded()), app: interval.app, groups: appGroups, hour: hour)
                start = hourEnd
            }
        }
        for bypass in try store.bypasses(from: dayStart, to: dayEnd) {
            day.bypasses.insert(.init(at: bypass.at, app: bypass.app, rule: bypass.rule, granted: bypass.granted))
        }
        for hit in try store.limitHits(from: dayStart, to: dayEnd) {
            day.limitHits.insert(.init(at: hit.at, app: hit.app, used: hit.used))
        }
        return day
    }
}
