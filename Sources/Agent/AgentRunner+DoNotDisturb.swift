import FoundationEssentials
import ScreenTimeCore

/// Do-not-disturb through whatever notification server runs, with the user's own state saved
/// first and given back when the mode ends, at a break and at exit (`DoNotDisturbController`).
extension AgentRunner {
    func setDoNotDisturb(_ policy: NotificationPolicy) {
        doNotDisturb.set(policy)
    }

    /// A notification arrived while silenced: counted for the morning run-down.
    func heldNotificationArrived(_ app: String, at date: Date) {
        usage.record(.heldNotification(app: app, at: date), at: date)
    }
}
