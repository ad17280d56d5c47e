import FoundationEssentials

extension UsageDatabase {
    /// The modes that became active within `[from, to)` (mode name, when), in time order.
    public func modeChanges(from: Date, to: Date) throws -> [(mode: String, at: Date)] {
        let statement = try cached("SELECT mode, at FROM mode_changes WHERE at >= ?1 AND at < ?2 ORDER BY at, id")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var changes: [(mode: String, at: Date)] = []
        while try statement.step() == .row {
            changes.append((statement.text(at: 0), Date(timeIntervalSince1970: statement.double(at: 1))))
        }
        return changes
    }
}
