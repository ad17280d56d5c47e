import FoundationEssentials

/// What the user reads. Kind, factual, and always stating their free choice.
public enum Wording {
    /// From this much time left the countdown stays on screen and counts down in place (1 min →
    /// 10 s → 5 s → the limit) instead of making new bubbles.
    public static let countdownInPlaceFrom: TimeInterval = 60
    /// How long an earlier countdown notice shows: a glance, then gone (frequent reminders
    /// devalue the ones that matter).
    public static let transientNoticeMilliseconds: Int32 = 8000

    /// A countdown mark. Far marks (30, 10 min) are low-urgency and transient; 5 min is a normal
    /// transient notice; from 1 minute the notice stays until replaced, so the next marks and
    /// the limit update it in place.
    public static func countdown(_ app: AppInfo, left: TimeInterval, used: TimeInterval, limit: TimeInterval) -> NotificationRequest {
        let final = left <= countdownInPlaceFrom
        return NotificationRequest(
            icon: app.icon ?? "screentime",
            summary: "\(app.name): \(DurationText.spoken(left.rounded(.up))) left today",
            body: "You have used \(app.name) for \(DurationText.spoken(used)) today. "
                + "When the \(DurationText.spoken(limit)) limit is reached it will be minimized, and you can still choose to continue.",
            urgency: left > 5 * 60 ? .low : .normal, expireTimeout: final ? 0 : transientNoticeMilliseconds,
            category: "screentime.countdown")
    }

    public static func limitReached(_ app: AppInfo, used: TimeInterval, grant: TimeInterval) -> NotificationRequest {
        NotificationRequest(
            icon: app.icon ?? "screentime",
            summary: "Time for a break from \(app.name)?",
            body: "You have used \(app.name) for \(DurationText.spoken(used)) today, and it has been minimized. "
                + "It is your choice: leave it here for today, or continue for \(DurationText.spoken(grant)).",
            actions: [NotificationAction(key: ActionKey.continue, label: "Continue for \(DurationText.spoken(grant))"),
                      NotificationAction(key: ActionKey.ok, label: "OK")],
            urgency: .normal, expireTimeout: 0, category: "screentime.limit")
    }
}
