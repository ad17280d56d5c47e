import FoundationEssentials
import ScreenTimeCore

/// Counts what the user sees of the engine's notices, as a notification server shows them: a
/// notice for an app whose previous one is still on screen updates it in place (`replaces_id`);
/// otherwise it is a new bubble. A notice with no timeout stays until replaced or closed; one with
/// the server's default is taken to show 10 s.
public struct NotificationLedger: Sendable {
    public private(set) var newBubbles = 0
    public private(set) var updatesInPlace = 0
    /// Apps minimized, in order (one entry per disable).
    public private(set) var disabled: [AppID] = []
    /// Bubbles that do not say what was used, what happens next or the way through.
    public private(set) var withoutContext: [String] = []
    /// Per notification (an app's, or the mode's), until when it is on screen.
    private var showing: [String: Date] = [:]

    static let serverDefaultTimeout: TimeInterval = 10

    public init() {}

    public mutating func record(_ actions: [EngineAction], at now: Date) {
        for action in actions {
            switch action {
            case .notify(let app, let request): show(request, key: app.rawValue, at: now)
            case .notifyMode(let request): show(request, key: "mode", at: now)
            // Counted as the notification it falls back to: where no card can be shown, that is what the user sees.
            case .showCard(let card, let fallback): show(fallback, key: card.app?.id.rawValue ?? "mode", at: now)
            case .closeNotification(let app): showing[app.rawValue] = nil
            case .minimize(let app): disabled.append(app)
            default: break
            }
        }
    }

    private mutating func show(_ request: NotificationRequest, key: String, at now: Date) {
        if let until = showing[key], until > now { updatesInPlace += 1 } else {
            newBubbles += 1
            if !Self.hasContext(request) { withoutContext.append(request.summary) }
        }
        showing[key] = switch request.expireTimeout {
        case 0: .distantFuture
        case ..<0: now.addingTimeInterval(Self.serverDefaultTimeout)
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
