import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The CLI's side of `org.screentime.Agent1`: calls the running agent, or says it is not running.
public final class AgentClient {
    public struct NotRunning: Error {}
    /// The agent refused the request; `message` says why, for the user.
    public struct Refused: Error, CustomStringConvertible {
        public var name: String
        public var message: String
        public var description: String { message }
    }

    let connection: BusConnection

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

    /// Returns the time the agent granted (the mode's bypass or `continue-for`), in seconds.
    public func continueUsing(_ app: AppID) throws -> TimeInterval {
        let reply = try call(AgentInterface.Method.continue, [.string(app.rawValue)])
        guard case .double(let granted)? = reply.first else { throw BusError.unexpectedReply(context: "Continue", signature: "") }
        return granted
    }

    /// A manual switch to `mode`, or `auto`.
    public func setMode(_ mode: String) throws {
        _ = try call(AgentInterface.Method.setMode, [.string(mode)])
    }

    /// Books a Cheat Day from `start`; returns its id.
    public func bookCheatDay(start: Date) throws -> String {
        let reply = try call(AgentInterface.Method.bookCheatDay, [.int64(Int64(start.timeIntervalSince1970.rounded(.down)))])
        guard let id = reply.first?.stringValue else { throw BusError.unexpectedReply(context: "BookCheatDay", signature: "") }
        return id
    }

    public func cancelCheatDay(id: String) throws {
        _ = try call(AgentInterface.Method.cancelCheatDay, [.string(id)])
    }

    public func cheatDays() throws -> [CheatDayListing] {
        let reply = try call(AgentInterface.Method.listCheatDays)
        guard let json = reply.first?.stringValue else { throw BusError.unexpectedReply(context: "ListCheatDays", signature: "") }
        return try JSONDecoder().decode([CheatDayListing].self, from: Data(json.utf8))
    }

    /// `Bedtime`, `StayUp`, `StartDay` or `Break`: the widget's buttons.
    public func press(_ method: String) throws {
        _ = try call(method)
    }

    func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        do {
            return try connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                       interface: AgentInterface.interface, method: method, arguments: arguments,
                                       autoStart: false)
        } catch BusError.failed(_, let name, _) where name.hasSuffix(".ServiceUnknown") || name.hasSuffix(".NameHasNoOwner") {
            throw NotRunning()
        } catch BusError.disconnected {
            throw NotRunning()
        } catch let error as BusMethodError where error.meansNoService {
            throw NotRunning()
        } catch let error as BusMethodError where error.name == BusMethodError.noReply && (try? connection.nameHasOwner(AgentInterface.busName)) == false {
            throw NotRunning() // the agent left before answering (a hung one still owns its name)
        } catch let error as BusMethodError where error.name.hasPrefix(AgentInterface.interface + ".Error.") {
            throw Refused(name: error.name, message: error.message)
        }
    }
}
