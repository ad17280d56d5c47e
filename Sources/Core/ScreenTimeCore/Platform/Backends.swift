import FoundationEssentials

/// A change seen by a focus source.
public enum FocusEvent: Equatable, Sendable {
    /// The focused top-level window changed; nil when no client window has focus.
    case focused(WindowFacts?)
    /// The focused window's title changed.
    case titleChanged(WindowFacts)
}

/// A desktop notification to show, in plain text: the backend escapes it when the server takes markup.
public struct NotificationRequest: Equatable, Sendable {
    public var appName: String
    /// Icon name or path (the app's icon, or a mode's icon).
    public var icon: String
    public var summary: String
    public var body: String
    /// (key, label) pairs, in order.
    public var actions: [NotificationAction]
    public var urgency: Urgency
    /// Milliseconds; -1 server default, 0 never.
    public var expireTimeout: Int32
    /// `category` hint, e.g. "screentime.countdown".
    public var category: String?
    /// A link shown under the body where the server takes `body-hyperlinks` (the default action
    /// opens the same where it does not).
    public var link: NotificationLink?

    public enum Urgency: UInt8, Sendable { case low = 0, normal = 1, critical = 2 }

    public init(appName: String = "Screen Time", icon: String, summary: String, body: String,
                actions: [NotificationAction] = [], urgency: Urgency = .normal, expireTimeout: Int32 = -1,
                category: String? = nil, link: NotificationLink? = nil) {
        self.appName = appName
        self.icon = icon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.urgency = urgency
        self.expireTimeout = expireTimeout
        self.category = category
        self.link = link
    }
}

public struct NotificationLink: Equatable, Sendable {
    public var url: String
    public var label: String
    public init(url: String, label: String) {
        self.url = url
        self.label = label
    }
}

public struct NotificationAction: Equatable, Sendable {
    public var key: String
    public var label: String
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// What came back from the notification server.
public enum NotificationEvent: Equatable, Sendable {
    case actionInvoked(id: UInt32, key: String)
    case closed(id: UInt32, reason: UInt32)
}

/// Shows notifications (org.freedesktop.Notifications or a dummy).
public protocol Notifier: AnyObject {
    var backendName: String { get }
    /// The server's capabilities (`actions`, `body-markup`, ...); empty when there is no server.
    var capabilities: Set<String> { get }
    /// Shows or, with `replacing` non-zero, updates a notification without waiting for the server:
    /// `shown` gets its id (or why it was not shown) when the server answers. Throws only when the
    /// request cannot be sent at all.
    func show(_ request: NotificationRequest, replacing id: UInt32,
              shown: @escaping (Result<UInt32, Error>) -> Void) throws
    func close(_ id: UInt32) throws
}
