import Foundation
import ScreenTimeCore
import UsageStore

/// Synthetic usage, the same for every run (a fixed seed): each day from 08:00, about 200 focus
/// changes among 16 apps, 1 to 5 minutes each, a pause of 5 to 30 minutes after about one in 15
/// (a pickup follows), the mode by the hour, a limit reached and a continue most days.
struct HistoryGenerator {
    var days: Int
    var changesPerDay = 200
    private var seed: UInt64 = 0x5eed

    init(days: Int) { self.days = days }

    static let apps: [AppID] = ["firefox", "xterm", "org.gnome.TextEditor", "thunderbird", "org.gnome.Nautilus", "mpv",
                                "signal-desktop", "youtube", "code", "org.gnome.Calculator", "libreoffice-writer",
                                "org.gnome.clocks", "element-desktop", "steam", "gimp", "reddit"]

    /// Writes the history of the `days` days up to `end`, one transaction a day; returns how many intervals.
    mutating func write(into store: UsageDatabase, endingAt end: Date) throws -> Int {
        var count = 0
        let firstDay = (end.timeIntervalSince1970 / 86_400).rounded(.down) - Double(days - 1)
        for day in 0..<days {
            var time = Date(timeIntervalSince1970: (firstDay + Double(day)) * 86_400 + 8 * 3600)
            try store.transaction {
                for change in 0..<changesPerDay {
                    let app = Self.apps[next(Self.apps.count)]
                    let hour = Int(time.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 3600)
                    let mode = hour < 12 ? "productivity" : hour < 21 ? "standard" : "wind-down"
                    let id = try store.beginInterval(app: app, title: "", mode: mode, at: time)
                    time = time.addingTimeInterval(Double(60 + next(240)))
                    try store.extendInterval(id, to: time)
                    if next(15) == 0 { time = time.addingTimeInterval(Double(300 + next(1500))) }
                    if change == 100 {
                        try store.recordLimitHit(app: app, at: time, used: 3600)
                        try store.recordBypass(app: app, mode: mode, rule: .limit, at: time, granted: 3600)
                    }
                    count += 1
                }
            }
        }
        return count
    }

    /// A number in `0..<bound` from a linear congruential generator.
    private mutating func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
}
