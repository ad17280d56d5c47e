import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The CLI's side of `org.screentime.Agent1`: calls the running agent, or says it is not running.
public final class AgentClient {
    public struct NotRunning: Error {}

    private let connection: BusConnection

    /// Connects to the session bus; `NotRunning` when there is no bus or no agent on it.
    public init(environment: [String: String]) throws {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["XDG_RUNTIME_DIR"] != nil else { throw NotRunning() }
        do { connection = try BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"]) } catch { throw NotRunning() }
    }

    deinit { connection.close() }

    public func status() throws -> StatusSnapshot {
        let reply = try call(AgentInterface.Method.status)
        guard let json = reply.first?.stringValue else { throw BusError.unexpectedReply(context: "Status", signature: "") }
        return try StatusFormat.decode(json)
    }

    public func continueUsing(_ app: AppID) throws {
        _ = try call(AgentInterface.Method.continue, [.string(app.rawValue)])
    }

    private func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        do {
            return try connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                       interface: AgentInterface.interface, method: method, arguments: arguments,
                                       autoStart: false)
        } catch BusError.failed(_, let name, _) where name.hasSuffix(".ServiceUnknown") || name.hasSuffix(".NameHasNoOwner") {
            throw NotRunning()
        } catch BusError.disconnected {
            throw NotRunning()
        }
    }
}
