import FoundationEssentials

/// When a change that gives more time or fewer restrictions takes effect (`[commitment] loosen`):
/// at the next day start, 12 hours or 1 hour after it was made, or at once (the old behaviour).
/// Tightening always takes effect at once.
public enum LoosenRule: String, CaseIterable, Sendable {
    case nextDay = "next-day"
    case twelveHours = "12h"
    case oneHour = "1h"
    case now

    /// Higher is stricter: lowering it is itself a loosening, and waits.
    public var strictness: Int {
        switch self {
        case .now: 0
        case .oneHour: 1
        case .twelveHours: 2
        case .nextDay: 3
        }
    }

    /// When a loosening made at `now` takes effect.
    public func due(after now: Date, dayBoundary: DayBoundary, zone: LocalTimeZone) -> Date {
        switch self {
        case .nextDay: dayBoundary.end(of: now, in: zone)
        case .twelveHours: now.addingTimeInterval(12 * 3600)
        case .oneHour: now.addingTimeInterval(3600)
        case .now: now
        }
    }
}

/// `[commitment]`: how loosening waits.
///
///     [commitment]
///     loosen = next-day        # 12h, 1h, or now (changes apply at once)
public struct CommitmentSettings: Equatable, Sendable {
    public var loosen = LoosenRule.nextDay

    /// A loosening made this soon after the tightening it undoes applies at once: a typo is not a commitment.
    public static let typoWindow: TimeInterval = 5 * 60

    public static let section = "commitment"
    public static let loosenKey = "loosen"

    public init() {}

    public init(_ file: KeyFile, path: String) throws {
        self.init()
        for (key, value, line) in file.entries(in: Self.section) {
            guard key == Self.loosenKey else {
                throw ConfigError(path: path, line: line, message: "unknown key `\(key)` in [commitment] (known: loosen)")
            }
            guard let rule = LoosenRule(rawValue: value) else {
                let known = LoosenRule.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigError(path: path, line: line, message: "`\(value)` is not a loosen setting (known: \(known))")
            }
            loosen = rule
        }
    }
}
