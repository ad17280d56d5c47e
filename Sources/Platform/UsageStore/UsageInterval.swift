import FoundationEssentials
import ScreenTimeCore

/// A row of the intervals table, as handed out by `beginInterval` to be extended later.
public struct IntervalID: Hashable, Sendable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A stretch of time during which one app had the focus.
public struct UsageInterval: Equatable, Sendable {
    public var app: AppID
    /// The window title when the interval began. Untrusted text from the app.
    public var title: String
    /// The name of the mode that was active.
    public var mode: String
    public var start: Date
    public var end: Date

    public init(app: AppID, title: String, mode: String, start: Date, end: Date) {
        self.app = app
        self.title = title
        self.mode = mode
        self.start = start
        self.end = end
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }
}
