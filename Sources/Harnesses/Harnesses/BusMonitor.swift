import Foundation
import SessionBus

/// Sees what other connections send on the bus: a connection turned into a monitor
/// (org.freedesktop.DBus.Monitoring.BecomeMonitor). Tests use it to check the Notify calls the code
/// under test made, exactly as the notification server received them.
public final class BusMonitor {
    /// A Notify call as sent (org.freedesktop.Notifications, `susssasa{sv}i`).
    public struct NotifyCall: Equatable {
        public var sender: String?
        public var appName: String
        public var replacesID: UInt32
        public var icon: String
        public var summary: String
        public var body: String
        /// Flat key, label, key, label... list.
        public var actions: [String]
        public var hints: [String: BusValue]
        public var expireTimeout: Int32

        /// The actions as (key, label) pairs.
        public var actionPairs: [(key: String, label: String)] {
            stride(from: 0, to: actions.count - 1, by: 2).map { (actions[$0], actions[$0 + 1]) }
        }
    }

    public static let notificationRules = [
        "type='method_call',interface='org.freedesktop.Notifications'",
        "type='signal',interface='org.freedesktop.Notifications'",
    ]

    public private(set) var messages: [BusMessage] = []
    private let connection: BusConnection

    /// Starts monitoring the bus at `address` for messages matching `rules`.
    public init(address: String, rules: [String] = BusMonitor.notificationRules) throws {
        connection = try BusConnection(address: address)
        try connection.becomeMonitor(rules: rules) { [weak self] message in
            self?.messages.append(message)
        }
    }

    /// Takes in what has arrived so far.
    public func drain() throws {
        try connection.dispatchPending()
    }

    /// All Notify calls seen so far, in order.
    public var notifyCalls: [NotifyCall] {
        messages.compactMap(Self.notifyCall)
    }

    /// Polls until `find` returns a value, or fails after `timeout` seconds.
    public func waitFor<T>(_ what: String, timeout: TimeInterval = 5, _ find: (BusMonitor) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try drain()
            if let found = find(self) { return found }
            guard Date() < deadline else { throw MonitorTimeout(what: what, seen: messages.count) }
            var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 20)
        }
    }

    /// Waits for a Notify call matching `predicate`.
    public func waitForNotify(timeout: TimeInterval = 5, where predicate: (NotifyCall) -> Bool) throws -> NotifyCall {
        try waitFor("a matching Notify call", timeout: timeout) { monitor in
            monitor.notifyCalls.last(where: predicate)
        }
    }

    public struct MonitorTimeout: Error, CustomStringConvertible {
        public var what: String
        public var seen: Int
        public var description: String { "bus monitor saw no \(what) (\(seen) messages seen)" }
    }

    private static func notifyCall(_ message: BusMessage) -> NotifyCall? {
        guard message.kind == .methodCall, message.interface == "org.freedesktop.Notifications",
              message.member == "Notify", message.arguments.signature == "susssasa{sv}i" else { return nil }
        let a = message.arguments
        return NotifyCall(sender: message.sender, appName: a[0].stringValue ?? "", replacesID: a[1].uint32Value ?? 0,
                          icon: a[2].stringValue ?? "", summary: a[3].stringValue ?? "", body: a[4].stringValue ?? "",
                          actions: a[5].stringArrayValue ?? [], hints: a[6].dictValue ?? [:],
                          expireTimeout: a[7].int32Value ?? 0)
    }
}
