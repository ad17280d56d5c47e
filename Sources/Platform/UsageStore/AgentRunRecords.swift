import FoundationEssentials
import ScreenTimeCore

/// The agent's runs and the spans it missed (`TrackingGaps`): written by the agent, read by
/// `report` and `status`.
extension UsageDatabase {
    /// The run before this one, if any.
    public func lastAgentRun() throws -> AgentRun? {
        let statement = try cached("SELECT started, alive, ended, end_reason, session FROM agent_runs ORDER BY id DESC LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() == .row else { return nil }
        func date(_ column: Int32) -> Date? { statement.isNull(at: column) ? nil : Date(timeIntervalSince1970: statement.double(at: column)) }
        return AgentRun(started: date(0)!, alive: date(1)!, ended: date(2),
                        endReason: statement.isNull(at: 3) ? nil : statement.text(at: 3), session: statement.text(at: 4))
    }

    /// A new run from `now`; its id, for `markAgentAlive` and `markAgentEnded`.
    public func beginAgentRun(at now: Date, session: String) throws -> Int64 {
        let statement = try cached("INSERT INTO agent_runs(started, alive, session) VALUES(?1, ?1, ?2)")
        try statement.bind(.real(now.timeIntervalSince1970), .text(session))
        try statement.run()
        return connection.lastInsertRowID
    }

    public func markAgentAlive(run: Int64, at now: Date) throws {
        let statement = try cached("UPDATE agent_runs SET alive = ?2 WHERE id = ?1")
        try statement.bind(.integer(run), .real(now.timeIntervalSince1970))
        try statement.run()
    }

    public func markAgentEnded(run: Int64, at now: Date, reason: String) throws {
        let statement = try cached("UPDATE agent_runs SET alive = ?2, ended = ?2, end_reason = ?3 WHERE id = ?1")
        try statement.bind(.integer(run), .real(now.timeIntervalSince1970), .text(reason))
        try statement.run()
    }

    public func recordUntracked(_ span: UntrackedSpan) throws {
        let statement = try cached("INSERT INTO untracked(start, end, cause, detail) VALUES(?1, ?2, ?3, ?4)")
        try statement.bind(.real(span.start.timeIntervalSince1970), .real(span.end.timeIntervalSince1970),
                           .text(span.cause.rawValue), .text(span.detail))
        try statement.run()
    }

    /// The spans overlapping `from..<to`, in order; a cause this version does not know is skipped.
    public func untracked(from: Date, to: Date) throws -> [UntrackedSpan] {
        let statement = try cached("SELECT start, end, cause, detail FROM untracked WHERE end > ?1 AND start < ?2 ORDER BY start")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var spans: [UntrackedSpan] = []
        while try statement.step() == .row {
            guard let cause = UntrackedCause(rawValue: statement.text(at: 2)) else { continue }
            spans.append(UntrackedSpan(start: Date(timeIntervalSince1970: statement.double(at: 0)),
                                       end: Date(timeIntervalSince1970: statement.double(at: 1)), cause: cause, detail: statement.text(at: 3)))
        }
        return spans
    }

    /// The latest span, for `status`.
    public func lastUntracked() throws -> UntrackedSpan? {
        let statement = try cached("SELECT start, end, cause, detail FROM untracked ORDER BY end DESC LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() == .row, let cause = UntrackedCause(rawValue: statement.text(at: 2)) else { return nil }
        return UntrackedSpan(start: Date(timeIntervalSince1970: statement.double(at: 0)),
                             end: Date(timeIntervalSince1970: statement.double(at: 1)), cause: cause, detail: statement.text(at: 3))
    }
}
