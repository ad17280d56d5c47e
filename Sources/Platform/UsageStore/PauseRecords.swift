import FoundationEssentials
import ScreenTimeCore

/// The pauses asked for (`screentime pause`): written by the agent, each a booking without
/// restrictions of its own length (`CheatDayBooking.pause`).
extension UsageDatabase {
    public func recordPause(start: Date, end: Date, requestedAt: Date) throws -> Int64 {
        let statement = try cached("INSERT INTO pauses(start, end, requested_at) VALUES(?1, ?2, ?3)")
        try statement.bind(.real(start.timeIntervalSince1970), .real(end.timeIntervalSince1970), .real(requestedAt.timeIntervalSince1970))
        try statement.run()
        return connection.lastInsertRowID
    }

    /// Ends the pauses running or to come at `now` (a tightening: at once); how many there were.
    @discardableResult
    public func endPauses(at now: Date) throws -> Int {
        let later = try cached("DELETE FROM pauses WHERE start > ?1")
        try later.bind(.real(now.timeIntervalSince1970))
        try later.run()
        let removed = connection.changes
        let running = try cached("UPDATE pauses SET end = ?1 WHERE start <= ?1 AND end > ?1")
        try running.bind(.real(now.timeIntervalSince1970))
        try running.run()
        return Int(removed) + Int(connection.changes)
    }

    /// The pauses not over at `now`, as bookings.
    public func pauses(notOverAt now: Date) throws -> [CheatDayBooking] {
        let statement = try cached("SELECT id, start, end, requested_at FROM pauses WHERE end > ?1 ORDER BY start")
        try statement.bind(.real(now.timeIntervalSince1970))
        defer { statement.reset() }
        var found: [CheatDayBooking] = []
        while try statement.step() == .row {
            let (start, end) = (statement.double(at: 1), statement.double(at: 2))
            var booking = CheatDayBooking(id: "pause-\(statement.int64(at: 0))", start: Date(timeIntervalSince1970: start),
                                          bookedAt: Date(timeIntervalSince1970: statement.double(at: 3)))
            booking.pause = max(0, end - start)
            found.append(booking)
        }
        return found
    }
}
