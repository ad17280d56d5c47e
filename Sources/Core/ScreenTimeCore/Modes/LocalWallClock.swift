import FoundationEssentials

// Wall-clock conversions on the user's zone (the protocol lives in Model/LocalTimeZone.swift).
extension LocalTimeZone {
    /// The local date and time shown at `instant` (fractions of a second are dropped).
    public func localDateTime(of instant: Date) -> LocalDateTime {
        let local = instant.timeIntervalSince1970.saturatedSeconds(.down) + utcOffset(at: instant)
        let days = floorDiv(local, 86_400)
        return LocalDateTime(date: CivilDate(daysSinceEpoch: days), time: WallTime(secondsOfDay: local - days * 86_400))
    }

    public func localDate(of instant: Date) -> CivilDate { localDateTime(of: instant).date }

    /// The instant a local clock shows `time` on `date`.
    ///
    /// Around daylight-saving changes (RFC 5545 §3.3.5 does the same):
    /// - in a gap (02:30 on the spring-forward night) the time is read with the offset in force
    ///   before the gap, which lands after it (02:30 CET = 03:30 CEST);
    /// - in an overlap (02:30 on the fall-back night, shown twice) the first of the two instants is used.
    public func instant(of date: CivilDate, at time: WallTime) -> Date {
        let naive = date.daysSinceEpoch * 86_400 + time.secondsOfDay
        // Real zones change offset at most once within a day on either side.
        let before = utcOffset(at: Date(timeIntervalSince1970: Double(naive - 86_400)))
        let after = utcOffset(at: Date(timeIntervalSince1970: Double(naive + 86_400)))
        let candidates = [naive - before, naive - after].filter {
            utcOffset(at: Date(timeIntervalSince1970: Double($0))) == naive - $0
        }
        let seconds = candidates.min() ?? (naive - before)
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Local midnight starting `date` (or the first instant of that day, should midnight fall in a gap).
    public func startOfDay(_ date: CivilDate) -> Date { instant(of: date, at: WallTime(secondsOfDay: 0)) }

    /// `2026-03-14 09:00`: minutes are rounded up, so a time printed as "the earliest" is never too early.
    public func formatMinute(_ instant: Date) -> String {
        let seconds = instant.timeIntervalSince1970
        let roundedUp = (seconds / 60).rounded(.up) * 60
        return localDateTime(of: Date(timeIntervalSince1970: roundedUp)).description
    }
}

func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
