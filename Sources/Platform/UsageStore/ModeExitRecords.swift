import FoundationEssentials
import ScreenTimeCore

/// A restrictive mode left early by hand (`ModeExit`): recorded like a card's continue.
public struct ModeExitRecord: Equatable, Sendable {
    public var mode: String
    public var at: Date
    /// What was left of the mode, when known.
    public var left: TimeInterval?
    /// The continue's length; nil when the mode was ended.
    public var granted: TimeInterval?
    /// Where it was asked: `terminal`, `bus`.
    public var how: String

    public init(mode: String, at: Date, left: TimeInterval?, granted: TimeInterval?, how: String) {
        self.mode = mode
        self.at = at
        self.left = left
        self.granted = granted
        self.how = how
    }
}

extension UsageDatabase {
    public func recordModeExit(_ exit: ModeExitRecord) throws {
        let statement = try cached("INSERT INTO mode_exits(mode, at, left, granted, how) VALUES(?1, ?2, ?3, ?4, ?5)")
        try statement.bind(.text(exit.mode), .real(exit.at.timeIntervalSince1970), exit.left.map { SQLiteValue.real($0) } ?? .null,
                           exit.granted.map { SQLiteValue.real($0) } ?? .null, .text(exit.how))
        try statement.run()
    }

    public func modeExits(from: Date, to: Date) throws -> [ModeExitRecord] {
        let statement = try cached("SELECT mode, at, left, granted, how FROM mode_exits WHERE at >= ?1 AND at < ?2 ORDER BY at")
        try statement.bind(.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970))
        defer { statement.reset() }
        var found: [ModeExitRecord] = []
        while try statement.step() == .row {
            found.append(ModeExitRecord(mode: statement.text(at: 0), at: Date(timeIntervalSince1970: statement.double(at: 1)),
                                        left: statement.isNull(at: 2) ? nil : statement.double(at: 2),
                                        granted: statement.isNull(at: 3) ? nil : statement.double(at: 3), how: statement.text(at: 4)))
        }
        return found
    }
}
