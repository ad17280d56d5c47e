import FoundationEssentials
import ScreenTimeCore

/// A Cheat Day booking as stored, with what the agent needs to keep the 12-hour rule honest.
public struct StoredCheatDay: Hashable, Sendable {
    public var id: String
    public var start: Date
    /// What the row says; a hand edit can claim anything here.
    public var bookedAt: Date
    /// When the agent first read the row (the agent's own bookings: when it made them).
    public var firstSeen: Date?
    public var cancelledAt: Date?

    public init(id: String, start: Date, bookedAt: Date, firstSeen: Date?, cancelledAt: Date? = nil) {
        self.id = id
        self.start = start
        self.bookedAt = bookedAt
        self.firstSeen = firstSeen
        self.cancelledAt = cancelledAt
    }

    /// The booking the resolver sees: booked at the later of the row's claim and the agent's first
    /// sight of it, so the notice is never counted from before the agent knew.
    public var booking: CheatDayBooking {
        CheatDayBooking(id: id, start: start, bookedAt: max(bookedAt, firstSeen ?? .distantFuture))
    }
}

/// The evening and morning answers (`stay-up`, `bedtime`, `start-day`); only the latest of each is kept.
public enum SleepActionKind: String, CaseIterable, Sendable {
    case stayUp = "stay-up"
    case bedtime
    case startDay = "start-day"
}

/// The runtime mode state: a manual switch, Cheat Day bookings, sleep actions and requested breaks.
/// The agent is the only writer; the CLI changes it through the agent's D-Bus interface.
extension UsageDatabase {
    // MARK: Manual switch

    /// The manual switch in force, if any; a row this version cannot read is handed to `skipped`.
    public func manualSwitch(skipped: (String) -> Void = { _ in }) throws -> ManualSwitch? {
        let statement = try cached("SELECT mode, since, until FROM manual_mode WHERE id = 1")
        defer { statement.reset() }
        guard try statement.step() == .row else { return nil }
        let name = statement.text(at: 0)
        // A mode this version does not know (a newer one wrote it) is no switch at all.
        guard let mode = Mode(rawValue: name) else {
            skipped("the manual switch names an unknown mode `\(name)`")
            return nil
        }
        return ManualSwitch(mode: mode, since: Date(timeIntervalSince1970: statement.double(at: 1)),
                            until: statement.isNull(at: 2) ? nil : Date(timeIntervalSince1970: statement.double(at: 2)))
    }

    /// Sets the manual switch, or clears it (`mode auto`) with nil.
    public func setManualSwitch(_ manual: ManualSwitch?) throws {
        guard let manual else { return try cached("DELETE FROM manual_mode").run() }
        let statement = try cached("INSERT OR REPLACE INTO manual_mode(id, mode, since, until) VALUES(1, ?1, ?2, ?3)")
        try statement.bind(.text(manual.mode.rawValue), .real(manual.since.timeIntervalSince1970),
                           manual.until.map { SQLiteValue.real($0.timeIntervalSince1970) } ?? .null)
        try statement.run()
    }

    // MARK: Cheat Days

    /// Stores a booking the agent made (so it has been seen at `bookedAt`).
    public func insertCheatDay(id: String, start: Date, bookedAt: Date) throws {
        let statement = try cached("INSERT INTO cheat_days(id, start, booked_at, first_seen) VALUES(?1, ?2, ?3, ?3)")
        try statement.bind(.text(id), .real(start.timeIntervalSince1970), .real(bookedAt.timeIntervalSince1970))
        try statement.run()
    }

    /// Marks a booking cancelled at `at`; false when there is no such booking still standing.
    @discardableResult
    public func cancelCheatDay(id: String, at: Date) throws -> Bool {
        let statement = try cached("UPDATE cheat_days SET cancelled_at = ?2 WHERE id = ?1 AND cancelled_at IS NULL")
        try statement.bind(.text(id), .real(at.timeIntervalSince1970))
        try statement.run()
        return connection.changes > 0
    }

    /// Notes `now` as the first sight of rows the agent has not read before (rows added by hand).
    public func markCheatDaysSeen(at now: Date) throws {
        let statement = try cached("UPDATE cheat_days SET first_seen = ?1 WHERE first_seen IS NULL")
        try statement.bind(.real(now.timeIntervalSince1970))
        try statement.run()
    }

    /// Every booking (cancelled ones too when asked), soonest first.
    public func cheatDays(includingCancelled: Bool = false) throws -> [StoredCheatDay] {
        let statement = try cached("""
            SELECT id, start, booked_at, first_seen, cancelled_at FROM cheat_days
            WHERE ?1 OR cancelled_at IS NULL ORDER BY start, id
            """)
        try statement.bind(.integer(includingCancelled ? 1 : 0))
        defer { statement.reset() }
        var found: [StoredCheatDay] = []
        func date(_ column: Int32) -> Date? { statement.isNull(at: column) ? nil : Date(timeIntervalSince1970: statement.double(at: column)) }
        while try statement.step() == .row {
            found.append(StoredCheatDay(id: statement.text(at: 0), start: date(1)!, bookedAt: date(2)!,
                                        firstSeen: date(3), cancelledAt: date(4)))
        }
        return found
    }

    // MARK: Sleep actions and breaks

    public func recordSleepAction(_ kind: SleepActionKind, at: Date) throws {
        let statement = try cached("INSERT OR REPLACE INTO sleep_actions(kind, at) VALUES(?1, ?2)")
        try statement.bind(.text(kind.rawValue), .real(at.timeIntervalSince1970))
        try statement.run()
    }

    /// The latest answer of each kind; a kind this version does not know is handed to `skipped`.
    public func sleepActions(skipped: (String) -> Void = { _ in }) throws -> SleepActions {
        let statement = try cached("SELECT kind, at FROM sleep_actions")
        defer { statement.reset() }
        var actions = SleepActions()
        while try statement.step() == .row {
            let at = Date(timeIntervalSince1970: statement.double(at: 1))
            let kind = statement.text(at: 0)
            switch SleepActionKind(rawValue: kind) {
            case .stayUp: actions.stayUpAt = at
            case .bedtime: actions.bedtimeAt = at
            case .startDay: actions.startDayAt = at
            case nil: skipped("a sleep action of unknown kind `\(kind)`")
            }
        }
        return actions
    }

    public func recordBreakRequest(at: Date) throws {
        let statement = try cached("INSERT INTO break_requests(at) VALUES(?1)")
        try statement.bind(.real(at.timeIntervalSince1970))
        try statement.run()
    }

    /// Breaks asked for at or after `since`, in order.
    public func breakRequests(since: Date) throws -> [Date] {
        let statement = try cached("SELECT at FROM break_requests WHERE at >= ?1 ORDER BY at")
        try statement.bind(.real(since.timeIntervalSince1970))
        defer { statement.reset() }
        var requests: [Date] = []
        while try statement.step() == .row { requests.append(Date(timeIntervalSince1970: statement.double(at: 0))) }
        return requests
    }
}
