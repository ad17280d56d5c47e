import FoundationEssentials
import ScreenTimeCore

/// Central European Time by the EU rule, for tests with a daylight-saving change: UTC+1, and UTC+2
/// from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
public struct CentralEuropeanZone: LocalTimeZone {
    /// Summer time per year, worked out once: the random runs ask for offsets millions of times.
    private let summers: [Int: Range<Date>]

    public init() {
        summers = Dictionary(uniqueKeysWithValues: (1900...2200).map { ($0, Self.summerTimeStarts($0)..<Self.summerTimeEnds($0)) })
    }

    public func utcOffset(at instant: Date) -> Int {
        let year = FixedOffsetZone(seconds: 0).localDate(of: instant).year
        let summer = summers[year] ?? Self.summerTimeStarts(year)..<Self.summerTimeEnds(year)
        return summer.contains(instant) ? 7200 : 3600
    }

    public static func summerTimeStarts(_ year: Int) -> Date { lastSundayOneAMUTC(year: year, month: 3) }
    public static func summerTimeEnds(_ year: Int) -> Date { lastSundayOneAMUTC(year: year, month: 10) }

    static func lastSundayOneAMUTC(year: Int, month: Int) -> Date {
        let last = CivilDate(year: year, month: month, day: 31)
        // Back from the 31st to its Sunday (weekday 7).
        let sunday = last.daysSinceEpoch - last.weekday.rawValue % 7
        return Date(timeIntervalSince1970: Double(sunday * 86_400 + 3600))
    }
}

/// A virtual clock for core tests: time only moves when the test says so.
public final class VirtualClock {
    public private(set) var now: Date
    public init(_ start: Date) { now = start }
    public func advance(by seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
    public func set(_ instant: Date) { now = instant }
}

extension LocalTimeZone {
    /// `zone.at("2026-03-29 02:30")`: the instant of a local time, for readable tests.
    public func at(_ text: String) -> Date {
        let parts = text.split(separator: " ")
        let d = parts[0].split(separator: "-").map { Int($0)! }
        let t = parts[1].split(separator: ":").map { Int($0)! }
        return instant(of: CivilDate(year: d[0], month: d[1], day: d[2]),
                       at: WallTime(hour: t[0], minute: t[1], second: t.count > 2 ? t[2] : 0))
    }
}
