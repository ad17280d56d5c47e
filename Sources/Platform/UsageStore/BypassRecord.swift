import FoundationEssentials
import ScreenTimeCore

/// The user chose to go past a block or limit ("one more minute", "ignore for today").
public struct BypassRecord: Equatable, Sendable {
    public var app: AppID
    /// The mode the continue was granted in.
    public var mode: String
    /// What it went past: the daily limit or the mode's restriction.
    public var rule: BypassedRule
    public var at: Date
    /// How much extra time the bypass granted.
    public var granted: TimeInterval

    public init(app: AppID, mode: String, rule: BypassedRule, at: Date, granted: TimeInterval) {
        self.app = app
        self.mode = mode
        self.rule = rule
        self.at = at
        self.granted = granted
    }
}
