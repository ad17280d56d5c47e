import FoundationEssentials

/// What the user reads. Kind, factual, and always stating their free choice.
public enum Wording {
    public static func countdown(_ app: AppInfo, left: TimeInterval, used: TimeInterval, limit: TimeInterval) -> NotificationRequest {
        NotificationRequest(
            icon: app.icon ?? "screentime",
            summary: "\(app.name): \(DurationText.spoken(left.rounded(.up))) left today",
            body: "You have used \(app.name) for \(DurationText.spoken(used)) today. "
                + "When the \(DurationText.spoken(limit)) limit is reached it will be minimized, and you can still choose to continue.",
            urgency: .low, category: "screentime.countdown")
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
