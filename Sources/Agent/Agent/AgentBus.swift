import Logging
import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The agent on the session bus: its well-known name and interface, and the notifications it
/// shows, on one connection (so `ActionInvoked` arrives where `Notify` was sent).
final class AgentBus {
    let connection: BusConnection
    let notifier: NotificationsClient
    private let notifications: AppNotifications
    private unowned let runner: AgentRunner

    init(runner: AgentRunner) throws {
        self.runner = runner
        connection = try BusConnection(address: runner.options.environment["DBUS_SESSION_BUS_ADDRESS"])
        guard try connection.requestName(AgentInterface.busName) else {
            connection.close()
            throw AgentError.alreadyRunning
        }
        notifier = try NotificationsClient(connection: connection)
        notifications = AppNotifications(notifier: notifier)
        runner.doNotDisturb.attach(connection)
        notifier.onServerChange = { [notifier, unowned runner] server in
            runner.doNotDisturb.serverChanged(server)
            if let server {
                Log.info("notifications: \(server.name) \(server.version), capabilities \(notifier.capabilities.sorted().joined(separator: " "))")
            } else {
                Log.warning("no notification server on the session bus; limits still apply, without notices")
            }
        }
        notifier.onEvent = { [unowned self] event in notificationEvent(event) }
        // A native host killed without saying goodbye: its connection's end says it (the rule for
        // each host is added at its hello).
        connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [unowned runner] message in
            guard message.arguments.count == 3, let name = message.arguments[0].stringValue, name.hasPrefix(":"),
                  message.arguments[2].stringValue == "" else { return }
            runner.browserConnectionClosed(name)
        }
        try connection.export(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                              introspection: AgentInterface.introspectionXML) { [unowned runner] member, arguments in
            // The parameter, not `self.runner`: a closure that named it plainly held the agent for good.
            try AgentService(runner: runner).call(member, arguments)
        }
    }

    /// The connection and the notifier can outlive this object (providers share the connection), so
    /// it takes back what would call it. Its closures hold it `unowned` rather than `weak`: a weak
    /// reference gives an object a side table, and every retain and release of it then takes the
    /// slow path, as the loop's session bus source makes several at each turn.
    deinit {
        notifier.onEvent = { _ in }
        connection.unexport(path: AgentInterface.objectPath)
    }

    /// The app id of the notice about the mode itself (and of cards about no app, where they fall back).
    static let modeNotice = AppID("screentime")
    /// The app id of the weekly summary's notification.
    static let weeklySummaryNotice = AppID("screentime-weekly-summary")

    func notify(_ app: AppID, _ request: NotificationRequest) throws {
        try notifications.notify(app, request)
    }

    func closeNotification(_ app: AppID) throws {
        try notifications.close(app)
    }

    private func notificationEvent(_ event: NotificationEvent) {
        switch event {
        case .actionInvoked(let id, let key):
            guard let app = notifications.app(for: id) else { return }
            if app == AgentBus.weeklySummaryNotice {
                if key == WeeklySummary.openAction { runner.openWeeklySummaryPage() }
                return
            }
            // The mode's own notice: Go to bed, Stay up, Start the day.
            if app == AgentBus.modeNotice {
                do { if try runner.takeSleepAction(key) { return } } catch {
                    return Log.warning("\(key) chosen in the mode's notice: \(error)")
                }
            }
            runner.send(.notificationAction(app: app, key: key))
        case .closed(let id, _):
            notifications.closed(id)
        }
    }

    /// Whether someone read the status (`Status()`) since the last `StatusChanged`. A follower
    /// reads it at each signal, and once after subscribing: while nobody reads, nobody follows,
    /// and the next change goes unsignalled (at every focus switch, a message and a wakeup of the
    /// bus saved). Edge-triggered, re-armed by the read, as docs/DBUS.md says.
    private var statusReadSinceSignal = true

    func statusRead() { statusReadSinceSignal = true }

    func statusChanged() {
        guard statusReadSinceSignal else { return }
        statusReadSinceSignal = false
        try? connection.emitSignal(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                   member: AgentInterface.Signal.statusChanged)
    }

    func close() {
        try? connection.releaseName(AgentInterface.busName)
        connection.close()
    }
}
