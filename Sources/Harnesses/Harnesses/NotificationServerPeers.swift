import Foundation
import SessionBus
import Synchronization

/// Notification servers that are not in Debian 12 (swaync) or not in a harness (Plasma's
/// notification server is plasmashell's, and the KWin harness runs no plasmashell): these peers
/// speak their documented do-not-disturb interfaces on a test's bus, for tests that say so in
/// their names. Each owns org.freedesktop.Notifications and answers as its server does, on a
/// thread of its own (so a caller may block on it, as the agent does at exit).
public final class NotificationServerPeer: Sendable {
    /// What the tests and the serving thread's method handlers share.
    private final class Model: Sendable {
        struct State {
            var dnd = false
            var refusing = false
            var inhibitions: [UInt32: (entry: String, reason: String)] = [:]
            var nextCookie: UInt32 = 1
        }
        let state = Mutex(State())
    }

    private let model = Model()
    /// Owns the bus connection, which only its thread uses.
    private let serving: BusServingThread

    /// swaync's `GetDnd`/`SetDnd` state.
    public var dnd: Bool {
        get { model.state.withLock { $0.dnd } }
        set { model.state.withLock { $0.dnd = newValue } }
    }

    /// Whether swaync answers `SetDnd` with an error (a fault to inject).
    public var refusesChanges: Bool {
        get { model.state.withLock { $0.refusing } }
        set { model.state.withLock { $0.refusing = newValue } }
    }

    /// Plasma's inhibitions by cookie: (desktop entry, reason).
    public var inhibitions: [UInt32: (entry: String, reason: String)] { model.state.withLock { $0.inhibitions } }

    /// SwayNotificationCenter (as its GetServerInformation answers), with its control-center
    /// object `org.erikreider.swaync.cc` on `/org/erikreider/swaync/cc`.
    public static func swaync(address: String) throws -> NotificationServerPeer {
        try NotificationServerPeer(address: address, name: "SwayNotificationCenter", vendor: "ErikReider", version: "0.8.0") { connection, model in
            guard try connection.requestName("org.erikreider.swaync.cc") else { throw Failure.nameTaken("org.erikreider.swaync.cc") }
            try connection.export(path: "/org/erikreider/swaync/cc", interface: "org.erikreider.swaync.cc",
                                  introspection: #"<interface name="org.erikreider.swaync.cc"/>"#) { member, arguments in
                switch member {
                case "GetDnd": return [.bool(model.state.withLock { $0.dnd })]
                case "SetDnd":
                    guard let on = arguments.first?.boolValue else { throw BusMethodError(name: BusMethodError.invalidArgs, message: "b expected") }
                    try model.state.withLock { state in
                        if state.refusing { throw BusMethodError(name: BusMethodError.failed, message: "refused") }
                        state.dnd = on
                    }
                    return []
                default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
                }
            }
        }
    }

    /// KDE Plasma's notification server: `Inhibit(s desktop_entry, s reason, a{sv} hints) -> u`
    /// and `UnInhibit(u)` on org.freedesktop.Notifications.
    public static func plasma(address: String) throws -> NotificationServerPeer {
        try NotificationServerPeer(address: address, name: "Plasma", vendor: "KDE", version: "5.27.5") { _, _ in }
    }

    public enum Failure: Error { case nameTaken(String) }

    /// Serves org.freedesktop.Notifications, and what `more` exports beside it, on a thread of its own.
    private init(address: String, name: String, vendor: String, version: String,
                 more: @escaping @Sendable (BusConnection, Model) throws -> Void) throws {
        let model = model
        serving = try BusServingThread(address: address) { connection in
            guard try connection.requestName(NotificationsClient.busName) else { throw Failure.nameTaken(NotificationsClient.busName) }
            try connection.export(path: NotificationsClient.objectPath, interface: NotificationsClient.interface,
                                  introspection: #"<interface name="org.freedesktop.Notifications"/>"#) { member, arguments in
                switch member {
                case "GetCapabilities": return [.strings(["body", "actions"])]
                case "GetServerInformation": return [.string(name), .string(vendor), .string(version), .string("1.2")]
                case "Notify":
                    return [.uint32(1)]
                case "Inhibit" where name == "Plasma":
                    guard arguments.count == 3, let entry = arguments[0].stringValue, let reason = arguments[1].stringValue else {
                        throw BusMethodError(name: BusMethodError.invalidArgs, message: "(ssa{sv}) expected")
                    }
                    return [.uint32(model.state.withLock { state in
                        let cookie = state.nextCookie
                        state.nextCookie += 1
                        state.inhibitions[cookie] = (entry, reason)
                        return cookie
                    })]
                case "UnInhibit" where name == "Plasma":
                    guard let cookie = arguments.first?.uint32Value,
                          model.state.withLock({ $0.inhibitions.removeValue(forKey: cookie) }) != nil else {
                        throw BusMethodError(name: BusMethodError.invalidArgs, message: "no such inhibition")
                    }
                    return []
                default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
                }
            }
            try more(connection, model)
        }
    }

    /// Gives up the names, as when the server exits.
    public func close() { serving.stop() }

    deinit { close() }
}
