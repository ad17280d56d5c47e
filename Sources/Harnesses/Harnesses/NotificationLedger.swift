import FoundationEssentials
import ScreenTimeCore

/// Counts what the user sees of the engine's notices, as a notification server shows them: a
/// notice for an app whose previous one is still on screen updates it in place (`replaces_id`);
/// otherwise it is a new bubble. A notice with no timeout stays until replaced or closed; one with
/// the server's default is taken to show 10 s. Every card is an interruption of its own, drawn or
/// shown as the notification it falls back to.
public struct NotificationLedger: Sendable {
    /// A new bubble or a card: something that took the user's attention.
    public struct Interruption: Sendable {
        public var at: Date
        /// Nil for a new bubble.
        public var card: CardRequest?
        /// The app it was about; nil for the mode's own notices (a new mode, a break).
        public var app: AppID?
        public var summary: String
        public var category: String?

        /// What it was about: its app, else the mode.
        public var subject: String { app?.rawValue ?? "the mode" }
        public var isCountdown: Bool { category == "screentime.countdown" }
    }

    public private(set) var newBubbles = 0
    public private(set) var updatesInPlace = 0
    public private(set) var cards = 0
    /// New bubbles and cards, in order.
    public private(set) var interruptions: [Interruption] = []
    /// Apps minimized, in order (one entry per disable).
    public private(set) var disabled: [AppID] = []
    /// Bubbles and cards that do not say what was used, what happens next or the way through.
    public private(set) var withoutContext: [String] = []
    /// Per notification (an app's, or the mode's), until when it is on screen.
    private var showing: [String: Date] = [:]

    static let serverDefaultTimeout: TimeInterval = 10

    public init() {}

    public mutating func record(_ actions: [EngineAction], at now: Date) {
        for action in actions {
            switch action {
            case .notify(let app, let request): show(request, about: app, at: now)
            case .notifyMode(let request): show(request, about: nil, at: now)
            case .showCard(let card, let fallback):
                cards += 1
                interruptions.append(Interruption(at: now, card: card, app: card.app?.id, summary: fallback.summary,
                                                  category: fallback.category))
                if !Self.hasContext(fallback) { withoutContext.append(fallback.summary) }
                // Where no card can be shown its notification stands in, and later notices update it.
                showing[card.app?.id.rawValue ?? "mode"] = Self.shownUntil(fallback, from: now)
            case .closeNotification(let app): showing[app.rawValue] = nil
            case .minimize(let app): disabled.append(app)
            default: break
            }
        }
    }

    private mutating func show(_ request: NotificationRequest, about app: AppID?, at now: Date) {
        let key = app?.rawValue ?? "mode"
        if let until = showing[key], until > now { updatesInPlace += 1 } else {
            newBubbles += 1
            interruptions.append(Interruption(at: now, app: app, summary: request.summary, category: request.category))
            if !Self.hasContext(request) { withoutContext.append(request.summary) }
        }
        showing[key] = Self.shownUntil(request, from: now)
    }

    private static func shownUntil(_ request: NotificationRequest, from now: Date) -> Date {
        switch request.expireTimeout {
        case 0: .distantFuture
        case ..<0: now.addingTimeInterval(serverDefaultTimeout)
        default: now.addingTimeInterval(TimeInterval(request.expireTimeout) / 1000)
        }
    }

    /// A bubble carries context: the way through (a Continue button or a command), and for an
    /// app's countdown or limit the time used and what happens at the limit.
    public static func hasContext(_ request: NotificationRequest) -> Bool {
        let text = (request.summary + " " + request.body).lowercased()
        let wayThrough = request.actions.contains { $0.key == ActionKey.continue } || text.contains("screentime ")
            || text.contains("continue")
        guard request.category == "screentime.countdown" || request.category == "screentime.limit" else { return wayThrough }
        return wayThrough && text.contains("used") && text.contains("minimized")
    }
}
