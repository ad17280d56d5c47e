import FoundationEssentials
import ScreenTimeCore

/// Random pieces of mode state for the seeded runs: what a user, a config and a calendar could
/// hold, extreme values the readers accept included.
extension SplitMix64 {
    public mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    public mutating func seconds(_ range: ClosedRange<TimeInterval>) -> TimeInterval {
        // Whole seconds mostly, as the config writes them; sometimes a fraction, as the clock reads.
        let value = TimeInterval.random(in: range, using: &self)
        return chance(0.8) ? min(range.upperBound, max(range.lowerBound, value.rounded())) : value
    }

    /// A duration within `bounds`, its ends chosen often (the edges are where ranges go backwards).
    public mutating func duration(_ bounds: ClosedRange<TimeInterval>) -> TimeInterval {
        switch Int.random(in: 0..<6, using: &self) {
        case 0: return bounds.lowerBound
        case 1: return bounds.upperBound
        default: return seconds(bounds.lowerBound...min(bounds.upperBound, max(bounds.lowerBound, 4 * 3600)))
        }
    }

    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }

    public mutating func wallTime() -> WallTime {
        chance(0.7) ? WallTime(hour: Int.random(in: 0..<24, using: &self), minute: pick([0, 15, 30, 45]))
            : WallTime(secondsOfDay: Int.random(in: 0..<86_400, using: &self))
    }

    public mutating func instant(near now: Date, within seconds: TimeInterval) -> Date {
        now.addingTimeInterval(self.seconds(-seconds...seconds))
    }

    public mutating func automaticSettings() -> AutomaticModeSettings {
        var settings = AutomaticModeSettings()
        settings.isEnabled = chance(0.85)
        settings.windDownBeforeBedtime = duration(DurationBounds.sleepOffset)
        settings.sleepAfterWindDown = duration(DurationBounds.sleepOffset)
        settings.wakeUpBeforeWakeTime = duration(DurationBounds.sleepOffset)
        settings.wakeUpAfterWakeTime = duration(DurationBounds.sleepOffset)
        settings.stayUpPause = duration(DurationBounds.sleepOffset)
        return settings
    }

    public mutating func productivityBreaks() -> ProductivityBreaks {
        var breaks = ProductivityBreaks()
        breaks.isEnabled = chance(0.8)
        breaks.every = duration(DurationBounds.breakEvery)
        breaks.length = duration(DurationBounds.breakLength)
        return breaks
    }

    public mutating func scheduleEntry(near now: Date, zone: LocalTimeZone, id: String) -> ScheduleEntry {
        let repetition: ScheduleEntry.Repetition = chance(0.6)
            ? .weekly(Set(Weekday.allCases.filter { _ in chance(0.5) }))
            : .once(zone.localDate(of: instant(near: now, within: 10 * 86_400)))
        return ScheduleEntry(id: id, mode: pick(Mode.switchable), start: wallTime(),
                             duration: chance(0.2) ? pick([1, 7 * 86_400]) : seconds(60...8 * 3600), repetition: repetition)
    }

    public mutating func calendarEvent(near now: Date) -> CalendarInterval {
        let start = instant(near: now, within: 5 * 86_400)
        // Now and then an event that ends before it starts, as a broken file can say.
        let end = start.addingTimeInterval(chance(0.05) ? -seconds(1...3600) : seconds(1...12 * 3600))
        return CalendarInterval(mode: pick(Mode.allCases), start: start, end: end, summary: pick(["", "Focus", "Party"]),
                                source: "random.ics")
    }

    public mutating func enabledModes() -> Set<Mode> {
        chance(0.5) ? Set(Mode.allCases) : Set(Mode.allCases.filter { $0 == .standard || chance(0.7) })
    }
}
