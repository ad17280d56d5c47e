import FoundationEssentials
import ScreenTimeCore

/// The user chose to go past a block or limit ("one more minute", "ignore for today").
public struct BypassRecord: Equatable, Sendable {
    public var app: AppID
    /// The mode whose rule was bypassed.
    public var mode: String
    public var at: Date
    /// How much extra time the bypass granted.
    public var granted: TimeInterval

    public init(app: AppID, mode: String, at: Date, granted: TimeInterval) {
        self.app = app
        self.mode = mode
        self.at = at
        self.granted = granted
    }
}
