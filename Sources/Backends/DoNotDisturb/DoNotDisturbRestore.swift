import FoundationEssentials
import SessionBus

/// `screentime display restore` (also run when the agent's unit stops): the notification
/// server's own state given back from what an agent that did not exit cleanly left saved.
public enum DoNotDisturbRestore {
    /// The server whose saved state was given back; nil when there was nothing to give back, no
    /// server, or an agent runs (its silence is the mode's, and it gives the state back itself).
    public static func run(environment: [String: String], now: @escaping () -> Date, timeout: Duration = .seconds(3)) -> String? {
        guard let connection = try? BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"]) else { return nil }
        defer { connection.close() }
        guard (try? connection.nameHasOwner(AgentInterface.busName)) == false,
              let client = try? NotificationsClient(connection: connection, activatesServer: false),
              let info = DoNotDisturbChooser.serverInfo(of: client, on: connection) else { return nil }
        let controller = DoNotDisturbController(environment: environment, now: now)
        controller.attach(connection)
        guard let server = controller.serverChanged(info), controller.isBusy else { return nil }
        _ = try? connection.dispatch(until: { !controller.isBusy }, timeout: timeout)
        return controller.isBusy ? nil : server
    }
}
