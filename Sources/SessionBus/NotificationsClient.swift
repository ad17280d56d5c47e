import FoundationEssentials
import ScreenTimeCore

/// What `GetServerInformation` says about the notification server.
public struct NotificationServerInfo: Equatable, Sendable {
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String

    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}

/// Why a notification could not be shown or closed.
public enum NotificationsError: Error, Equatable, CustomStringConvertible {
    /// No notification server owns org.freedesktop.Notifications (and none could be activated).
    case serverUnavailable
    /// The server answered a call with something else than the spec's reply.
    case unexpectedReply(method: String, signature: String)

    public var description: String {
        switch self {
        case .serverUnavailable:
            return "no notification server on the session bus (\(NotificationsClient.busName))"
        case .unexpectedReply(let method, let signature):
            return "notification server answered \(method) with (\(signature))"
        }
    }
}

/// Shows notifications through org.freedesktop.Notifications on a shared `BusConnection`.
///
/// Events (ActionInvoked, NotificationClosed) arrive on the connection that sent Notify, so they are
/// delivered from the owner's `dispatchPending()`, and only for notifications this client created.
/// The server's capabilities are read at start and again whenever the server's owner changes.
public final class NotificationsClient: Notifier {
    public static let busName = "org.freedesktop.Notifications"
    public static let objectPath = "/org/freedesktop/Notifications"
    public static let interface = "org.freedesktop.Notifications"
    /// Sent as the `desktop-entry` hint so servers group and theme our notifications.
    public static let desktopEntry = "screentime"

    public let backendName = "org.freedesktop.Notifications"
    public private(set) var capabilities: Set<String> = []
    public private(set) var serverInfo: NotificationServerInfo?
    /// Called from `dispatchPending()` for actions chosen on, and closing of, our notifications.
    public var onEvent: (NotificationEvent) -> Void
    /// Called when a server appears (with its information) or goes away (nil).
    public var onServerChange: ((NotificationServerInfo?) -> Void)?

    private let connection: BusConnection
    private let serverName: String
    private let activatesServer: Bool
    private let callTimeout: Duration
    private var ownIDs: Set<UInt32> = []

    public var serverAvailable: Bool { serverInfo != nil }

    /// Subscribes to the server's signals and reads its capabilities; a missing server is not an error
    /// here (capabilities stay empty until one appears). `serverName` is the bus name the server owns.
    /// With `activatesServer` (the default) calls let the bus start an installed server (D-Bus
    /// activation) when none runs, as desktops without an autostarted one rely on.
    public init(connection: BusConnection, serverName: String = NotificationsClient.busName,
                activatesServer: Bool = true, callTimeout: Duration = .seconds(2),
                onEvent: @escaping (NotificationEvent) -> Void = { _ in }) throws {
        self.connection = connection
        self.serverName = serverName
        self.activatesServer = activatesServer
        self.callTimeout = callTimeout
        self.onEvent = onEvent
        try connection.addMatch("type='signal',sender='\(serverName)',path='\(Self.objectPath)',interface='\(Self.interface)'")
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(serverName)'")
        connection.onSignal(interface: Self.interface) { [weak self] message in
            self?.serverSignal(message)
        }
        connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [weak self] message in
            self?.ownerChanged(message)
        }
        refreshServer()
    }

    /// Reads capabilities and server information again; clears them when there is no server.
    public func refreshServer() {
        do {
            let caps = try call("GetCapabilities")
            guard let names = caps.first?.stringArrayValue else {
                throw NotificationsError.unexpectedReply(method: "GetCapabilities", signature: caps.signature)
            }
            let info = try call("GetServerInformation")
            let strings = info.compactMap(\.stringValue)
            guard info.count == 4, strings.count == 4 else {
                throw NotificationsError.unexpectedReply(method: "GetServerInformation", signature: info.signature)
            }
            capabilities = Set(names)
            serverInfo = NotificationServerInfo(name: strings[0], vendor: strings[1], version: strings[2], specVersion: strings[3])
        } catch {
            capabilities = []
            serverInfo = nil
        }
    }

    public func show(_ request: NotificationRequest, replacing id: UInt32) throws -> UInt32 {
        if !serverAvailable { refreshServer() }
        guard serverAvailable else { throw NotificationsError.serverUnavailable }
        let body = capabilities.contains("body-markup") ? NotificationMarkup.escape(request.body) : request.body
        let actions = capabilities.contains("actions") ? request.actions.flatMap { [$0.key, $0.label] } : []
        var hints: [String: BusValue] = [
            "urgency": .byte(request.urgency.rawValue),
            "desktop-entry": .string(Self.desktopEntry),
        ]
        if let category = request.category { hints["category"] = .string(category) }
        let reply = try callDroppingServer("Notify", [
            .string(request.appName), .uint32(id), .string(request.icon), .string(request.summary),
            .string(body), .strings(actions), .vardict(hints), .int32(request.expireTimeout),
        ])
        guard reply.count == 1, let newID = reply[0].uint32Value else {
            throw NotificationsError.unexpectedReply(method: "Notify", signature: reply.signature)
        }
        ownIDs.insert(newID)
        return newID
    }

    public func close(_ id: UInt32) throws {
        guard serverAvailable else { throw NotificationsError.serverUnavailable }
        _ = try callDroppingServer("CloseNotification", [.uint32(id)])
    }

    // MARK: Private

    private func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try connection.call(destination: serverName, path: Self.objectPath, interface: Self.interface,
                            method: method, arguments: arguments, timeout: callTimeout, autoStart: activatesServer)
    }

    /// A call that notices the server has gone (between its leaving and our seeing NameOwnerChanged).
    private func callDroppingServer(_ method: String, _ arguments: [BusValue]) throws -> [BusValue] {
        do {
            return try call(method, arguments)
        } catch let error as BusMethodError where error.meansNoService {
            serverGone()
            throw NotificationsError.serverUnavailable
        }
    }

    private func serverSignal(_ message: BusMessage) {
        let args = message.arguments
        switch message.member {
        case "ActionInvoked":
            guard args.count == 2, let id = args[0].uint32Value, let key = args[1].stringValue, ownIDs.contains(id) else { return }
            onEvent(.actionInvoked(id: id, key: key))
        case "NotificationClosed":
            guard args.count == 2, let id = args[0].uint32Value, let reason = args[1].uint32Value, ownIDs.contains(id) else { return }
            ownIDs.remove(id)
            onEvent(.closed(id: id, reason: reason))
        default:
            break
        }
    }

    private func ownerChanged(_ message: BusMessage) {
        let args = message.arguments
        guard args.count == 3, args[0].stringValue == serverName, let newOwner = args[2].stringValue else { return }
        if newOwner.isEmpty {
            serverGone()
        } else {
            // Our ids stay: a Notify may already have reached the new server before this signal.
            refreshServer()
            onServerChange?(serverInfo)
        }
    }

    private func serverGone() {
        let hadServer = serverAvailable
        capabilities = []
        serverInfo = nil
        if hadServer { onServerChange?(nil) }
    }
}
