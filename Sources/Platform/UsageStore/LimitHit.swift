import FoundationEssentials
import ScreenTimeCore

/// An app reached its time limit.
public struct LimitHit: Equatable, Sendable {
    public var app: AppID
    public var at: Date
    /// The app's usage counted against the limit when it was hit.
    public var used: TimeInterval

    public init(app: AppID, at: Date, used: TimeInterval) {
        self.app = app
        self.at = at
        self.used = used
    }
}
