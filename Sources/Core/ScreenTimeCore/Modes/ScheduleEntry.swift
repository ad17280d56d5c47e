import FoundationEssentials

/// A scheduled mode: weekly (`--at 09:00 --for 3h --every mon-fri`) or once (`--at "2026-03-14 09:00"`).
public struct ScheduleEntry: Hashable, Sendable, CustomStringConvertible {
    public enum Repetition: Hashable, Sendable {
        case weekly(Set<Weekday>)
        case once(CivilDate)
    }

    /// Chosen by the store of entries (`schedule rm ID`); empty until then.
    public var id: String
    public var mode: Mode
    /// Local time the mode starts.
    public var start: WallTime
    /// Elapsed time, so `--for 3h` lasts three hours on a daylight-saving night too.
    public var duration: TimeInterval
    public var repetition: Repetition

    /// What an entry without `--for` lasts.
    public static let defaultDuration: TimeInterval = 3600

    public init(id: String = "", mode: Mode, start: WallTime, duration: TimeInterval = ScheduleEntry.defaultDuration,
                repetition: Repetition) {
        self.id = id
        self.mode = mode
        self.start = start
        self.duration = duration
        self.repetition = repetition
    }

    /// The entry's occurrences that overlap `range`, in order.
    public func occurrences(in range: Range<Date>, zone: LocalTimeZone) -> [Range<Date>] {
        let dates: [CivilDate]
        switch repetition {
        case .once(let date):
            dates = [date]
        case .weekly(let days):
            // An occurrence that started before the range (overnight, or a long one) may still overlap it.
            let first = zone.localDate(of: range.lowerBound.addingTimeInterval(-duration)).adding(days: -1)
            let last = zone.localDate(of: range.upperBound).adding(days: 1)
            guard first <= last else { return [] }
            dates = (first.daysSinceEpoch...last.daysSinceEpoch).map(CivilDate.init(daysSinceEpoch:))
                .filter { days.contains($0.weekday) }
        }
        return dates.compactMap { date in
            let begin = zone.instant(of: date, at: start)
            let occurrence = Range(from: begin, upTo: begin.addingTimeInterval(duration))
            return occurrence.overlaps(range) ? occurrence : nil
        }
    }

    /// `productivity at 09:00 for 3h every mon-fri`, `social on 2026-03-14 at 18:00 for 2h`.
    public var description: String {
        let length = DurationText.format(duration)
        switch repetition {
        case .weekly(let days):
            return "\(mode.rawValue) at \(start) for \(length) every \(DayListText.format(days))"
        case .once(let date):
            return "\(mode.rawValue) on \(date) at \(start) for \(length)"
        }
    }
}
