import Logging
import AgentControl
import FoundationEssentials
import ScreenTimeCore
import UsageStore

/// Why a change to the mode state was refused; `kind` picks the D-Bus error name.
public struct ModeStateError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable { case invalidArgument, notAllowed, notFound }
    public var kind: Kind
    public var message: String
    public var description: String { message }

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// The runtime mode state as the store holds it, read at one instant.
public struct ModeStateSnapshot: Equatable, Sendable {
    public var manual: ManualSwitch?
    /// Bookings not cancelled, soonest first.
    public var cheatDays: [StoredCheatDay] = []
    public var sleepActions = SleepActions()
    public var requestedBreaks: [Date] = []
    /// Pauses not over (`screentime pause`), as bookings without restrictions.
    public var pauses: [CheatDayBooking] = []

    public init(manual: ManualSwitch? = nil, cheatDays: [StoredCheatDay] = [], sleepActions: SleepActions = SleepActions(),
                requestedBreaks: [Date] = []) {
        self.manual = manual
        self.cheatDays = cheatDays
        self.sleepActions = sleepActions
        self.requestedBreaks = requestedBreaks
    }
}

/// The changes the CLI asks the agent for (over D-Bus), each checked, then written to the store.
/// The agent is the store's only writer.
public struct ModeState {
    public let store: UsageDatabase
    public let zone: LocalTimeZone

    public init(store: UsageDatabase, zone: LocalTimeZone) {
        self.store = store
        self.zone = zone
    }

    /// Reads the state; rows the agent has not seen before (added by hand) are stamped as seen now,
    /// so their 12-hour notice counts from now.
    /// A row that cannot be interpreted (an unknown name, an absurd date) is reported and skipped:
    /// never a reason not to start.
    public func read(now: Date) throws -> ModeStateSnapshot {
        try store.markCheatDaysSeen(at: now)
        let skip = { (what: String) in Log.warning("mode state: skipping \(what)") }
        func plausible(_ date: Date?, _ what: String) -> Date? {
            guard let date else { return nil }
            guard abs(date.timeIntervalSince(now)) <= Self.plausibleDistance else {
                skip("\(what) at \(date.timeIntervalSince1970) (Unix seconds), too far from now")
                return nil
            }
            return date
        }
        var manual = try store.manualSwitch(skipped: skip)
        if let switched = manual, plausible(switched.since, "the manual switch to \(switched.mode.rawValue)") == nil { manual = nil }
        let until = plausible(manual?.until, "the manual switch's end")
        manual?.until = until
        let cheatDays = try store.cheatDays().filter {
            plausible($0.start, "Cheat Day \($0.id)") != nil && plausible($0.bookedAt, "Cheat Day \($0.id)'s booking time") != nil
        }
        var actions = try store.sleepActions(skipped: skip)
        actions.stayUpAt = plausible(actions.stayUpAt, "stay-up")
        actions.bedtimeAt = plausible(actions.bedtimeAt, "bedtime")
        actions.startDayAt = plausible(actions.startDayAt, "start-day")
        let breaks = try store.breakRequests(since: now.addingTimeInterval(-ModeResolver.lookBack))
            .filter { plausible($0, "a break request") != nil }
        var snapshot = ModeStateSnapshot(manual: manual, cheatDays: cheatDays, sleepActions: actions, requestedBreaks: breaks)
        snapshot.pauses = try store.pauses(notOverAt: now).filter { plausible($0.start, "a pause") != nil }
        return snapshot
    }

    /// Stored instants farther from now than this are no state a user made (a Cheat Day is booked
    /// at most a year ahead; the clock may have been stepped meanwhile).
    static let plausibleDistance = 2 * DurationText.longest

    /// `screentime mode NAME`: a manual switch from now; `auto` (or nil) clears it.
    public func setMode(_ name: String, settings: ModeSettings, now: Date) throws {
        if name.lowercased() == "auto" { return try store.setManualSwitch(nil) }
        guard let mode = Mode(name: name), Mode.switchable.contains(mode) else {
            if Mode(name: name) == .cheatDay {
                throw ModeStateError(kind: .notAllowed, message: "A Cheat Day is booked at least 12 hours ahead with `screentime cheat-day book WHEN`.")
            }
            let names = (Mode.switchable.map(\.rawValue) + ["auto"]).joined(separator: ", ")
            throw ModeStateError(kind: .invalidArgument, message: "“\(name)” is not a mode; choose one of \(names).")
        }
        guard mode == .standard || settings.enabledModes.contains(mode) else {
            throw ModeStateError(kind: .notAllowed, message: "\(mode.displayName) is turned off in the config ([modes]).")
        }
        try store.setManualSwitch(ManualSwitch(mode: mode, since: now))
    }

    /// Books a Cheat Day from `start`, after CheatDayBook's checks (12 hours ahead, no overlap).
    public func bookCheatDay(start: Date, settings: ModeSettings, now: Date) throws -> CheatDayBooking {
        guard settings.enabledModes.contains(.cheatDay) else {
            throw ModeStateError(kind: .notAllowed, message: "Cheat Day is turned off in the config ([modes]).")
        }
        let book = CheatDayBook(bookings: try read(now: now).cheatDays.map(\.booking))
        do { try book.validate(start: start, now: now, zone: zone) } catch {
            throw ModeStateError(kind: .notAllowed, message: error.message)
        }
        let taken = Set(try store.cheatDays(includingCancelled: true).map(\.id))
        let base = zone.localDate(of: start).description
        var (id, suffix) = (base, 1)
        while taken.contains(id) {
            suffix += 1
            id = "\(base)-\(suffix)"
        }
        try store.insertCheatDay(id: id, start: start, bookedAt: now)
        return CheatDayBooking(id: id, start: start, bookedAt: now)
    }

    /// Cancels a booking, even one under way.
    public func cancelCheatDay(id: String, now: Date) throws {
        guard try store.cancelCheatDay(id: id, at: now) else {
            throw ModeStateError(kind: .notFound, message: "There is no Cheat Day booked as “\(id)” (see `screentime cheat-day list`).")
        }
    }

    /// Bookings not yet over, for `cheat-day list`.
    public func upcomingCheatDays(now: Date) throws -> [CheatDayListing] {
        try read(now: now).cheatDays.map(\.booking).filter { $0.end > now }.map(CheatDayListing.init)
    }

    /// "Go to bed", "Stay up", "Start the day": the user's latest word on the night, so it ends a
    /// switch made by hand before it (a Wind Down switched on by hand, then "Go to bed", is Sleep).
    public func record(_ action: SleepActionKind, now: Date) throws {
        try store.setManualSwitch(nil)
        try store.recordSleepAction(action, at: now)
    }

    public func requestBreak(now: Date) throws { try store.recordBreakRequest(at: now) }
}
