import DoNotDisturb
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

    /// Social's exceptions, by desktop id: the installed communication apps (messages, mail,
    /// calls) and the apps the user chose for Social, as the groups say now. From the entries
    /// already read: reading them all again (200 files on a desktop with GNOME and KDE) held the
    /// loop for a second at the switch to Social.
    func socialApps() -> [String] {
        let settings = engine.settings
        let passing: Set<AppClass> = [.communication, .chosenSocial]
        var apps = Set(desktopEntries.map(AppInfo.init)
            .filter { !settings.classes(of: $0).isDisjoint(with: passing) }.map(\.id.rawValue))
        for group in [AppGroup.communication, .socialApps] {
            apps.formUnion(settings.groupEdits[group]?.added.map(\.rawValue) ?? [])
        }
        return apps.sorted()
    }
}
