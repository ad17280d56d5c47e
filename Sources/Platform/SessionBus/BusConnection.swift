import FoundationEssentials
import ScreenTimeCore
#if canImport(Glibc)
import Glibc
#endif

/// A private connection to a message bus, driven by its owner's poll loop: put `fileDescriptor`
/// into poll (for POLLOUT too while `hasPendingOutput`), call `dispatchPending()` when it is ready
/// and after every blocking `call`, and `expireOverdueReplies()` at `nextReplyDeadline(now:)`.
/// Not thread-safe: use one connection from one thread.
public final class BusConnection {
    /// Answers a method call on an exported object: gets the member name and arguments, returns the
    /// reply's arguments, or throws `BusMethodError` to send an error reply.
    public typealias MethodHandler = (_ member: String, _ arguments: [BusValue]) throws -> [BusValue]
    public typealias SignalHandler = (BusMessage) -> Void

    /// The standard interface every exported object answers, with the XML it answers.
    public static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    private let connection: RawConnection
    /// libdbus, for all but the two queue queries: any call may read or write the socket, so
    /// what they answered no longer holds.
    private var raw: RawConnection {
        knownPendingOutput = nil
        knownQueuedIncoming = nil
        return connection
    }
    /// What `hasPendingOutput` and `hasQueuedIncoming` last answered. Only calls into libdbus
    /// change its queues, and every one goes through `raw`: a poll loop asks both at every turn,
    /// and each ask takes the connection's locks.
    private var knownPendingOutput: Bool?
    private var knownQueuedIncoming: Bool?
    private var isClosed = false
    private var objects: [String: ExportedObject] = [:]
    private var signalHandlers: [(interface: String, member: String?, handler: SignalHandler)] = []
    private var monitorHandler: SignalHandler?
    private var templates = MessageTemplates()
    private var pendingReplies = PendingReplies()

    private struct ExportedObject {
        var handlers: [String: MethodHandler] = [:]
        /// `<interface>` elements, in export order.
        var interfaceXML: [String] = []
    }

    /// Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/user/1000/bus`),
    /// or to the session bus (DBUS_SESSION_BUS_ADDRESS) when nil. A `guid=` in the address is not
    /// checked, so the same address reaches a restarted bus.
    public init(address: String? = nil) throws {
        let given = address ?? getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        connection = try RawConnection.open(address: given.map(BusAddress.withoutGUID))
        try raw.installFilter { [weak self] message in
            self?.handle(message) ?? false
        }
    }

    deinit { close() }

    /// Closes the connection; later use throws `BusError.disconnected`. Replies still awaited are
    /// dropped unanswered: their owner is going away with the connection.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        pendingReplies.removeAll()
        raw.closeAndRelease()
    }

    /// This connection's unique name on the bus (`:1.42`).
    public var uniqueName: String { raw.uniqueName ?? "" }

    /// The socket to poll for readability; -1 once closed. Asked of libdbus once (a connection
    /// keeps its socket): asking takes the connection's lock, and a poll loop asks every turn.
    /// libdbus closes the socket when it finds the peer gone, inside the `dispatchPending()` that
    /// then throws `disconnected`: the owner drops the connection before the number is polled again.
    public var fileDescriptor: Int32 {
        guard !isClosed else { return -1 }
        if socket < 0 { socket = raw.fileDescriptor }
        return socket
    }
    private var socket: Int32 = -1

    public var isConnected: Bool { !isClosed && raw.isConnected }

    /// Whether queued output waits for the socket to take it: then poll for POLLOUT too and call
    /// `dispatchPending()` when writable (a large reply takes several turns), or `flush()`.
    /// The unique name (`:1.42`) of the connection whose method call a handler is answering; nil
    /// outside a handler. What tells apart callers that share everything else (two of a browser's
    /// profiles, each with its own native host, in one browser process).
    public private(set) var currentCaller: String?

    public var hasPendingOutput: Bool {
        guard !isClosed else { return false }
        if let knownPendingOutput { return knownPendingOutput }
        let pending = connection.hasOutgoingMessages
        knownPendingOutput = pending
        return pending
    }

    /// Whether messages already read wait in libdbus's queue. A blocking call (AddMatch,
    /// RequestName, `call`) reads whatever arrives meanwhile, and the descriptor will not announce
    /// it again: a poll loop must then `dispatchPending()` without waiting.
    public var hasQueuedIncoming: Bool {
        guard !isClosed else { return false }
        if let knownQueuedIncoming { return knownQueuedIncoming }
        let queued = connection.hasQueuedIncoming
        knownQueuedIncoming = queued
        return queued
    }

    /// Writes all queued output, blocking until the socket took it.
    public func flush() {
        guard !isClosed else { return }
        raw.flush()
    }

    /// Reads what has arrived without waiting and hands every queued message to its handler.
    /// Throws `BusError.disconnected` once the bus is gone.
    public func dispatchPending() throws {
        guard !isClosed else { throw BusError.disconnected }
        // libdbus reads at most a few KiB per turn; keep going while the socket still has data,
        // bounded so a flood cannot starve the rest of the poll loop.
        var turns = 0
        repeat {
            _ = raw.readWriteNonBlocking()
            while raw.dispatchOne() {}
            turns += 1
        } while turns < 64 && raw.isConnected && socketReadable()
        if !raw.isConnected { throw BusError.disconnected }
    }

    /// Sends what is queued, then reads and dispatches until `done()` holds or `timeout` passes:
    /// for an answer a short-lived command, or a provider connecting, may wait for. Returns
    /// whether `done()` held.
    public func dispatch(until done: () -> Bool, timeout: Duration) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !done() {
            guard ContinuousClock.now < deadline else { return false }
            flush()
            if !hasQueuedIncoming {
                var entry = pollfd(fd: raw.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 50)
            }
            try dispatchPending()
        }
        return true
    }

    private func socketReadable() -> Bool {
        var entry = pollfd(fd: raw.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    // MARK: Names

    /// Takes `name` unless someone else owns it (no queueing): false when another owner exists,
    /// so a second agent can refuse to start.
    public func requestName(_ name: String) throws -> Bool {
        guard !isClosed else { throw BusError.disconnected }
        return try raw.requestName(name)
    }

    public func releaseName(_ name: String) throws {
        guard !isClosed else { throw BusError.disconnected }
        try raw.releaseName(name)
    }

    /// Whether someone owns `name`: one blocking round trip to the bus daemon, for a provider
    /// connecting or a short-lived command.
    public func nameHasOwner(_ name: String, timeout: Duration = .seconds(5)) throws -> Bool {
        try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                 method: "NameHasOwner", arguments: [.string(name)], timeout: timeout).first?.boolValue ?? false
    }

    // MARK: Calls

    /// Calls a method without waiting: `onReply` gets the reply's arguments, or the error reply as
    /// `BusMethodError`, from a later `dispatchPending()`; or a `BusMethodError.noReply` from
    /// `expireOverdueReplies()` once `timeout` has passed. A poll loop calling this never waits on
    /// the other side, however slow or stopped it is.
    public func send(destination: String, path: String, interface: String, method: String,
                     arguments: [BusValue] = [], timeout: Duration = .seconds(25), autoStart: Bool = true,
                     onReply: @escaping (Result<[BusValue], Error>) -> Void) throws {
        let message = try callMessage(destination: destination, path: path, interface: interface, method: method,
                                      arguments: arguments, autoStart: autoStart)
        let serial = try raw.send(message)
        pendingReplies.add(serial: serial, deadline: .now + timeout, handler: onReply)
    }

    /// When the earliest call sent with `send(…onReply:)` gives up, as a wall-clock date from `now`.
    public func nextReplyDeadline(now: Date) -> Date? {
        pendingReplies.nextDeadline.map { now.addingTimeInterval(ContinuousClock.now.duration(to: $0).timeInterval) }
    }

    /// Gives up on the calls whose timeout has passed: their handlers get `BusMethodError.noReply`.
    public func expireOverdueReplies() {
        for handler in pendingReplies.takeOverdue(at: .now) {
            handler(.failure(BusMethodError(name: BusMethodError.noReply, message: "no reply within the timeout")))
        }
    }

    /// Calls a method and waits up to `timeout` for the reply's arguments. An error reply (including
    /// no owner and timeout) is thrown as `BusMethodError`. Messages arriving meanwhile stay queued:
    /// call `dispatchPending()` afterwards, as the descriptor will not signal them again.
    /// With `autoStart` false the bus does not start an activatable service for the call.
    public func call(destination: String, path: String, interface: String, method: String,
                     arguments: [BusValue] = [], timeout: Duration = .seconds(5), autoStart: Bool = true) throws -> [BusValue] {
        let message = try callMessage(destination: destination, path: path, interface: interface, method: method,
                                      arguments: arguments, autoStart: autoStart)
        let reply = try raw.call(message, timeoutMilliseconds: Self.milliseconds(timeout))
        return reply.arguments()
    }

    private func callMessage(destination: String, path: String, interface: String, method: String,
                             arguments: [BusValue], autoStart: Bool) throws -> MessageRef {
        guard !isClosed else { throw BusError.disconnected }
        let key = MessageTemplates.Key(destination: destination, path: path, interface: interface, member: method,
                                       arguments: arguments, autoStart: autoStart)
        return try templates.message(for: key) {
            let message = try MessageRef.methodCall(destination: destination, path: path, interface: interface, member: method)
            message.setAutoStart(autoStart)
            try message.append(arguments)
            return message
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(ms, 0))
    }

    // MARK: Signals

    /// Asks the bus to route matching messages here, e.g.
    /// `type='signal',sender='org.freedesktop.Notifications',interface='org.freedesktop.Notifications'`.
    public func addMatch(_ rule: String) throws {
        guard !isClosed else { throw BusError.disconnected }
        try raw.addMatch(rule)
    }

    public func removeMatch(_ rule: String) throws {
        guard !isClosed else { throw BusError.disconnected }
        try raw.removeMatch(rule)
    }

    /// Calls `handler` for each received signal of `interface` (and `member`, or every member when
    /// nil). Signals only arrive for match rules added with `addMatch` (or sent to this connection).
    public func onSignal(interface: String, member: String? = nil, handler: @escaping SignalHandler) {
        signalHandlers.append((interface, member, handler))
    }

    public func emitSignal(path: String, interface: String, member: String, arguments: [BusValue] = []) throws {
        guard !isClosed else { throw BusError.disconnected }
        let key = MessageTemplates.Key(destination: nil, path: path, interface: interface, member: member,
                                       arguments: arguments, autoStart: true)
        let message = try templates.message(for: key) {
            let message = try MessageRef.signal(path: path, interface: interface, member: member)
            try message.append(arguments)
            return message
        }
        try raw.send(message)
    }

    // MARK: Exported objects

    /// Answers method calls to `interface` on `path` with `handler`. `introspection` is the
    /// `<interface>` element describing it; Introspect on the path (and its parents) is answered.
    public func export(path: String, interface: String, introspection: String, handler: @escaping MethodHandler) throws {
        try NameCheck.path(path, "exporting \(interface)")
        try NameCheck.interface(interface, "exporting \(interface) on \(path)")
        objects[path, default: ExportedObject()].handlers[interface] = handler
        objects[path, default: ExportedObject()].interfaceXML.append(introspection)
    }

    public func unexport(path: String) {
        objects[path] = nil
    }

    // MARK: Monitoring

    /// Turns this connection into a bus monitor (org.freedesktop.DBus.Monitoring.BecomeMonitor):
    /// from now on it receives copies of all messages matching `rules` (all messages when empty)
    /// and can send nothing else. Meant for tests and diagnostics.
    public func becomeMonitor(rules: [String] = [], handler: @escaping SignalHandler) throws {
        monitorHandler = handler
        do {
            _ = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                         interface: "org.freedesktop.DBus.Monitoring", method: "BecomeMonitor",
                         arguments: [.strings(rules), .uint32(0)])
        } catch {
            monitorHandler = nil
            throw error
        }
    }

    // MARK: Dispatch

    /// The connection's filter: true when the message was handled here.
    private func handle(_ message: MessageRef) -> Bool {
        if let monitorHandler {
            monitorHandler(BusMessage(message))
            return true
        }
        switch message.kind {
        case .signal:
            let interface = message.interface
            let member = message.member
            let matching = signalHandlers.filter { $0.interface == interface && ($0.member == nil || $0.member == member) }
            if !matching.isEmpty {
                let decoded = BusMessage(message)
                for registration in matching { registration.handler(decoded) }
            }
            return false
        case .methodCall:
            return answer(message)
        case .methodReturn, .error:
            guard let handler = pendingReplies.take(message.replySerial) else { return false }
            if message.kind == .methodReturn {
                handler(.success(message.arguments()))
            } else {
                let text = message.arguments().first?.stringValue ?? ""
                handler(.failure(BusMethodError(name: message.errorName ?? BusMethodError.failed, message: text)))
            }
            return true
        default:
            return false
        }
    }

    private func answer(_ call: MessageRef) -> Bool {
        guard let path = call.path, let member = call.member else { return false }
        let interface = call.interface
        let reply: MessageRef?
        if interface == Self.introspectableInterface || (interface == nil && member == "Introspect"),
           let xml = introspectionDocument(for: path) {
            reply = member == "Introspect"
                ? try? withArguments(call.methodReturn(), [.string(xml)])
                : try? call.errorReply(name: BusMethodError.unknownMethod, message: "no method \(member) on \(path)")
        } else if let object = objects[path] {
            let handler = interface.flatMap { object.handlers[$0] }
                ?? (interface == nil && object.handlers.count == 1 ? object.handlers.first?.value : nil)
            if let handler {
                reply = response(to: call, member: member, handler: handler)
            } else {
                reply = try? call.errorReply(name: BusMethodError.unknownInterface,
                                             message: "no interface \(interface ?? "(none)") on \(path)")
            }
        } else {
            return false // libdbus answers UnknownMethod.
        }
        if let reply, !call.noReplyExpected {
            try? raw.send(reply)
        }
        return true
    }

    private func response(to call: MessageRef, member: String, handler: MethodHandler) -> MessageRef? {
        currentCaller = call.sender
        defer { currentCaller = nil }
        do {
            return try withArguments(call.methodReturn(), handler(member, call.arguments()))
        } catch let error as BusMethodError {
            return (try? call.errorReply(name: error.name, message: error.message))
                ?? (try? call.errorReply(name: BusMethodError.failed, message: error.description))
        } catch {
            return try? call.errorReply(name: BusMethodError.failed, message: "\(error)")
        }
    }

    private func withArguments(_ message: MessageRef, _ arguments: [BusValue]) throws -> MessageRef {
        try message.append(arguments)
        return message
    }

    /// The XML for `path`: its interfaces, and child nodes leading to deeper exported paths.
    private func introspectionDocument(for path: String) -> String? {
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(objects.keys.compactMap { other -> String? in
            guard other.hasPrefix(prefix), other != path else { return nil }
            return other.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }).sorted()
        let object = objects[path]
        guard object != nil || !children.isEmpty else { return nil }
        var xml = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="\(Self.introspectableInterface)">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>

        """
        for element in object?.interfaceXML ?? [] { xml += element + "\n" }
        for child in children { xml += "  <node name=\"\(child)\"/>\n" }
        xml += "</node>\n"
        return xml
    }
}
