import Foundation
import SessionBus

/// Notification servers that are not in Debian 12 (swaync) or not in a harness (Plasma's
/// notification server is plasmashell's, and the KWin harness runs no plasmashell): these peers
/// speak their documented do-not-disturb interfaces on a test's bus, for tests that say so in
/// their names. Each owns org.freedesktop.Notifications and answers as its server does, on a
/// thread of its own (so a caller may block on it, as the agent does at exit).
// Unchecked: a peer served on a thread of its own; its state is read and changed only under `lock`, and its bus connection is used by the serving thread alone.
public final class NotificationServerPeer: @unchecked Sendable {
    private let connection: BusConnection
    private let lock = NSLock()
    private var running = true
    private var thread: Thread?
    private var dndState = false
    private var refusing = false
    private var inhibitionsState: [UInt32: (entry: String, reason: String)] = [:]
    private var nextCookie: UInt32 = 1

    /// swaync's `GetDnd`/`SetDnd` state.
    public var dnd: Bool {
        get { lock.withLock { dndState } }
        set { lock.withLock { dndState = newValue } }
    }

    /// Whether swaync answers `SetDnd` with an error (a fault to inject).
    public var refusesChanges: Bool {
        get { lock.withLock { refusing } }
        set { lock.withLock { refusing = newValue } }
    }

    /// Plasma's inhibitions by cookie: (desktop entry, reason).
    public var inhibitions: [UInt32: (entry: String, reason: String)] { lock.withLock { inhibitionsState } }

    /// SwayNotificationCenter (as its GetServerInformation answers), with its control-center
    /// object `org.erikreider.swaync.cc` on `/org/erikreider/swaync/cc`.
    public static func swaync(address: String) throws -> NotificationServerPeer {
        let peer = try NotificationServerPeer(address: address, name: "SwayNotificationCenter", vendor: "ErikReider", version: "0.8.0")
        guard try peer.connection.requestName("org.erikreider.swaync.cc") else { throw Failure.nameTaken("org.erikreider.swaync.cc") }
        try peer.connection.export(path: "/org/erikreider/swaync/cc", interface: "org.erikreider.swaync.cc",
                                   introspection: #"<interface name="org.erikreider.swaync.cc"/>"#) { [unowned peer] member, arguments in
            switch member {
            case "GetDnd": return [.bool(peer.dnd)]
            case "SetDnd":
                guard let on = arguments.first?.boolValue else { throw BusMethodError(name: BusMethodError.invalidArgs, message: "b expected") }
                if peer.refusesChanges { throw BusMethodError(name: BusMethodError.failed, message: "refused") }
                peer.dnd = on
                return []
            default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
            }
        }
        peer.serve()
        return peer
    }

    /// KDE Plasma's notification server: `Inhibit(s desktop_entry, s reason, a{sv} hints) -> u`
    /// and `UnInhibit(u)` on org.freedesktop.Notifications.
    public static func plasma(address: String) throws -> NotificationServerPeer {
        let peer = try NotificationServerPeer(address: address, name: "Plasma", vendor: "KDE", version: "5.27.5")
        peer.serve()
        return peer
    }

    public enum Failure: Error { case nameTaken(String) }

    private init(address: String, name: String, vendor: String, version: String) throws {
        connection = try BusConnection(address: address)
        guard try connection.requestName(NotificationsClient.busName) else { throw Failure.nameTaken(NotificationsClient.busName) }
        try connection.export(path: NotificationsClient.objectPath, interface: NotificationsClient.interface,
                              introspection: #"<interface name="org.freedesktop.Notifications"/>"#) { [unowned self] member, arguments in
            switch member {
            case "GetCapabilities": return [.strings(["body", "actions"])]
            case "GetServerInformation": return [.string(name), .string(vendor), .string(version), .string("1.2")]
            case "Notify":
                return [.uint32(1)]
            case "Inhibit" where name == "Plasma":
                guard arguments.count == 3, let entry = arguments[0].stringValue, let reason = arguments[1].stringValue else {
                    throw BusMethodError(name: BusMethodError.invalidArgs, message: "(ssa{sv}) expected")
                }
                return [.uint32(lock.withLock {
                    let cookie = nextCookie
                    nextCookie += 1
                    inhibitionsState[cookie] = (entry, reason)
                    return cookie
                })]
            case "UnInhibit" where name == "Plasma":
                guard let cookie = arguments.first?.uint32Value, lock.withLock({ inhibitionsState.removeValue(forKey: cookie) }) != nil else {
                    throw BusMethodError(name: BusMethodError.invalidArgs, message: "no such inhibition")
                }
                return []
            default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
            }
        }
    }

    private func serve() {
        let thread = Thread { [unowned self] in
            let connection = self.connection
            while lock.withLock({ running }) {
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 20)
                do { try connection.dispatchPending() } catch { return }
            }
            connection.close()
        }
        self.thread = thread
        thread.start()
    }

    /// Gives up the names, as when the server exits.
    public func close() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(5_000) }
    }

    deinit { close() }
}
