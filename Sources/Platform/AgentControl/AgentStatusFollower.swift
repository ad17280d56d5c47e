import FoundationEssentials
import Glibc
import ScreenTimeCore
import SessionBus
import SystemErrors

/// `status --follow`: the agent's status now, then again after each `StatusChanged` signal, and
/// "not running" while its bus name has no owner (a bar started before the agent at login, an
/// agent restarted), until it comes back. Nothing wakes it but the bus: it waits in `poll` on the
/// bus socket with no timeout.
public final class AgentStatusFollower {
    public enum Update: Equatable {
        case status(StatusSnapshot)
        case notRunning
    }

    /// The rule docs/DBUS.md gives for the signal.
    static let statusChangedRule = "type='signal',sender='\(AgentInterface.busName)',interface='\(AgentInterface.interface)',"
        + "member='\(AgentInterface.Signal.statusChanged)'"
    /// The agent's name gaining or losing its owner.
    static let ownerRule = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='\(AgentInterface.busName)'"

    private let client: AgentClient
    private var stale = true

    /// Subscribes on the session bus; `AgentClient.NotRunning` when there is no bus at all.
    public init(environment: [String: String]) throws {
        client = try AgentClient(environment: environment)
        let connection = client.connection
        do {
            try connection.addMatch(Self.statusChangedRule)
            try connection.addMatch(Self.ownerRule)
        } catch { throw AgentClient.NotRunning() }
        connection.onSignal(interface: AgentInterface.interface, member: AgentInterface.Signal.statusChanged) { [unowned self] _ in
            stale = true
        }
        connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [unowned self] message in
            if message.arguments.first?.stringValue == AgentInterface.busName { stale = true }
        }
    }

    /// Hands `update` the status now and after each change, signals arriving together making one
    /// update. Returns when the session bus goes away (the session is ending).
    public func run(_ update: (Update) throws -> Void) throws {
        let connection = client.connection
        while true {
            if stale {
                stale = false
                try update(current())
            }
            // A blocking Status call reads what arrives meanwhile; the socket will not announce it again.
            if !connection.hasQueuedIncoming {
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard (try? retryingInterrupts({ poll(&entry, 1, -1) })) != nil else { return }
            }
            do { try connection.dispatchPending() } catch BusError.disconnected { return }
        }
    }

    private func current() throws -> Update {
        do { return .status(try client.status()) } catch is AgentClient.NotRunning {
            return .notRunning
        } catch let error as BusMethodError where error.name == BusMethodError.unknownMethod || error.name == BusMethodError.unknownObject {
            return .notRunning // an agent that owns the name but is not yet answering (starting, or leaving)
        }
    }
}
