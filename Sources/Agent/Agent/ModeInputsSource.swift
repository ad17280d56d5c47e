import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// Builds what the mode resolver decides from: the config's mode settings, the stored mode state,
/// the calendar intervals last expanded, and bedtime and wake time learned from recorded activity.
public enum ModeInputsSource {
    /// How far back recorded activity is read to learn sleep times (14 nights and a margin).
    public static let activityLookBack: TimeInterval = 16 * 86_400

    /// The inputs, from values already read (no I/O).
    public static func inputs(settings: ModeSettings, state: ModeStateSnapshot, calendar: [CalendarInterval],
                              activity: [Range<Date>], now: Date, zone: LocalTimeZone) -> ModeInputs {
        var inputs = ModeInputs()
        inputs.schedule = settings.schedule
        inputs.calendar = calendar
        inputs.manual = state.manual
        // Each booking's notice counts from max(booked_at, first seen): the resolver drops those that
        // do not keep 12 hours.
        inputs.cheatDays = CheatDayBook(bookings: state.cheatDays.map(\.booking) + state.pauses)
        inputs.sleepTimes = settings.bedtimeLearner.sleepTimes(activity: activity, now: now, zone: zone)
        inputs.sleepActions = state.sleepActions
        inputs.automatic = settings.automatic
        inputs.breaks = settings.breaks
        inputs.requestedBreaks = state.requestedBreaks
        inputs.enabledModes = settings.enabledModes.union([.standard])
        return inputs
    }

    /// The inputs at `now`, reading the store (the mode state and the last 16 days of activity).
    public static func load(store: UsageDatabase, settings: ModeSettings, calendar: [CalendarInterval],
                            now: Date, zone: LocalTimeZone) throws -> ModeInputs {
        let state = try ModeState(store: store, zone: zone).read(now: now)
        let activity = try store.intervals(from: now.addingTimeInterval(-activityLookBack), to: now).map { $0.start..<$0.end }
        return inputs(settings: settings, state: state, calendar: calendar, activity: activity, now: now, zone: zone)
    }
}
