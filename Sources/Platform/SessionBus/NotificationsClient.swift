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
/// Nothing here waits for the server: calls are sent and their answers handled in the owner's
/// `dispatchPending()`, so a hung server (stopped, swapping) cannot stall the owner's loop.
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
    /// Called with the outcome of the first look for a server, then whenever one appears (with its
    /// information, once it answered) or goes away (nil).
    public var onServerChange: ((NotificationServerInfo?) -> Void)?

    private let connection: BusConnection
    private let serverName: String
    private let activatesServer: Bool
    private let callTimeout: Duration
    private var ownIDs: Set<UInt32> = []
    /// A GetCapabilities/GetServerInformation exchange is in flight; another is due when it ends.
    private var refreshing = false
    private var refreshAgain = false
    /// Whether the first refresh has ended: its outcome, server or none, is reported either way.
    private var answeredOnce = false
    /// Notices asked for while the server's capabilities were unknown: sent when they are known.
    private var waitingForServer: [(request: NotificationRequest, id: UInt32, shown: (Result<UInt32, Error>) -> Void)] = []

    public var serverAvailable: Bool { serverInfo != nil }

    /// Subscribes to the server's signals and asks for its capabilities (the answer comes through
    /// the owner's `dispatchPending()`); a missing server is not an error here (capabilities stay
    /// empty until one appears). `serverName` is the bus name the server owns. With
    /// `activatesServer` (the default) calls let the bus start an installed server (D-Bus
    /// activation) when none runs, as desktops without an autostarted one rely on. `callTimeout`
    /// is how long a call waits for the server's answer before giving up; nothing blocks meanwhile.
    public init(connection: BusConnection, serverName: String = NotificationsClient.busName,
                activatesServer: Bool = true, callTimeout: Duration = .seconds(10),
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

    /// Asks for the capabilities and server information again; `onServerChange` follows when the
    /// server was found or lost. Without a server both are cleared.
    public func refreshServer() {
        guard !refreshing else { refreshAgain = true; return }
        refreshing = true
        do {
            try call("GetCapabilities") { [weak self] caps in
                guard let self else { return }
                guard case .success(let caps) = caps, let names = caps.first?.stringArrayValue else { return self.refreshed(nil) }
                do {
                    try self.call("GetServerInformation") { [weak self] info in
                        let strings = ((try? info.get()) ?? []).map(\.stringValue)
                        guard strings.count == 4, let name = strings[0], let vendor = strings[1], let version = strings[2],
                              let specVersion = strings[3] else { self?.refreshed(nil); return }
                        self?.refreshed((Set(names), NotificationServerInfo(name: name, vendor: vendor, version: version,
                                                                            specVersion: specVersion)))
                    }
                } catch {
                    self.refreshed(nil)
                }
            }
        } catch {
            refreshed(nil)
        }
    }

    private func refreshed(_ server: (capabilities: Set<String>, info: NotificationServerInfo)?) {
        refreshing = false
        if refreshAgain {
            refreshAgain = false
            return refreshServer()
        }
        let changed = server?.info != serverInfo || !answeredOnce
        answeredOnce = true
        capabilities = server?.capabilities ?? []
        serverInfo = server?.info
        if changed { onServerChange?(serverInfo) }
        let waiting = waitingForServer
        waitingForServer = []
        for notice in waiting {
            do { try send(notice.request, replacing: notice.id, shown: notice.shown) } catch { notice.shown(.failure(error)) }
        }
    }

    /// Sends Notify; with no server known yet, asks for one first (which may activate it) and sends
    /// when it answers.
    public func show(_ request: NotificationRequest, replacing id: UInt32,
                     shown: @escaping (Result<UInt32, Error>) -> Void) throws {
        guard serverAvailable else {
            waitingForServer.append((request, id, shown))
            if !refreshing { refreshServer() }
            return
        }
        try send(request, replacing: id, shown: shown)
    }

    private func send(_ request: NotificationRequest, replacing id: UInt32, shown: @escaping (Result<UInt32, Error>) -> Void) throws {
        guard serverAvailable else { return shown(.failure(NotificationsError.serverUnavailable)) }
        var body = capabilities.contains("body-markup") ? MarkupText.escape(request.body) : request.body
        if let link = request.link, capabilities.isSuperset(of: ["body-markup", "body-hyperlinks"]) {
            body += "\n<a href=\"\(MarkupText.escape(link.url))\">\(MarkupText.escape(link.label))</a>"
        }
        let actions = capabilities.contains("actions") ? request.actions.flatMap { [$0.key, $0.label] } : []
        var hints: [String: BusValue] = [
            "urgency": .byte(request.urgency.rawValue),
            "desktop-entry": .string(Self.desktopEntry),
        ]
        if let category = request.category { hints["category"] = .string(category) }
        try call("Notify", [
            .string(request.appName), .uint32(id), .string(request.icon), .string(request.summary),
            .string(body), .strings(actions), .vardict(hints), .int32(request.expireTimeout),
        ]) { [weak self] reply in
            switch reply {
            case .success(let reply):
                guard reply.count == 1, let newID = reply[0].uint32Value else {
                    return shown(.failure(NotificationsError.unexpectedReply(method: "Notify", signature: reply.signature)))
                }
                self?.ownIDs.insert(newID)
                shown(.success(newID))
            case .failure(let error):
                shown(.failure(error))
            }
        }
    }

    /// Asks the server to close notification `id`, without waiting for its answer.
    public func close(_ id: UInt32) throws {
        guard serverAvailable else { throw NotificationsError.serverUnavailable }
        try call("CloseNotification", [.uint32(id)]) { _ in }
    }

    // MARK: Private

    /// A call whose answer may show the server has gone (between its leaving and our seeing
    /// NameOwnerChanged): then the server is dropped and the error is `serverUnavailable`.
    private func call(_ method: String, _ arguments: [BusValue] = [],
                      onReply: @escaping (Result<[BusValue], Error>) -> Void) throws {
        try connection.send(destination: serverName, path: Self.objectPath, interface: Self.interface, method: method,
                            arguments: arguments, timeout: callTimeout, autoStart: activatesServer) { [weak self] reply in
            if case .failure(let error as BusMethodError) = reply, error.meansNoService {
                self?.serverGone()
                return onReply(.failure(NotificationsError.serverUnavailable))
            }
            onReply(reply)
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
        }
    }

    private func serverGone() {
        let hadServer = serverAvailable
        capabilities = []
        serverInfo = nil
        if hadServer { onServerChange?(nil) }
    }
}
