import FoundationEssentials

/// `screentime pause DURATION`: the honest way to stop for a while. No limits or modes hold while
/// it runs (time is still counted), and it ends by itself. Asking for one is a loosening: it
/// starts when the loosening rule says (`[commitment] loosen`), at once during a Cheat Day.
public enum PauseRule {
    public static let bounds: ClosedRange<TimeInterval> = 60...(12 * 3600)

    public static func start(askedAt now: Date, settings: Settings, inCheatDay: Bool, zone: LocalTimeZone) -> Date {
        inCheatDay ? now : settings.commitment.loosen.due(after: now, dayBoundary: settings.dayBoundary, zone: zone)
    }
}
