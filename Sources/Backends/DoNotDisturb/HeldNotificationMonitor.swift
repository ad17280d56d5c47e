import FoundationEssentials
import SessionBus

/// What arrives while notifications are silenced, counted per app for the morning run-down: a
/// second connection to the session bus, turned monitor (`BecomeMonitor`) for the `Notify` calls to
/// the notification server, open only while silenced, its descriptor in the agent's poll set.
/// Each call's `desktop-entry` hint names the app, else its app_name; the agent's own are skipped.
final class HeldNotificationMonitor {
    static let rule = "type='method_call',interface='\(NotificationsClient.interface)',member='Notify'"

    private let connection: BusConnection

    /// Watches the bus at `address` (the session bus when nil); `ownName` is the agent's unique
    /// name, whose notifications are not counted. `onHeld` gets each app as its Notify passes.
    init(address: String?, ownName: String, onHeld: @escaping (String) -> Void) throws {
        connection = try BusConnection(address: address)
        try connection.becomeMonitor(rules: [Self.rule]) { message in
            guard message.kind == .methodCall, message.member == "Notify", message.sender != ownName,
                  let app = Self.app(of: message.arguments) else { return }
            onHeld(app)
        }
        // Calls that arrived during BecomeMonitor's round trip wait in the queue: the descriptor will not announce them.
        try connection.dispatchPending()
    }

    /// The app a Notify call comes from: its `desktop-entry` hint, else its app_name; nil when
    /// it names none.
    static func app(of arguments: [BusValue]) -> String? {
        guard arguments.count == 8 else { return nil }
        let entry = arguments[6].dictValue?["desktop-entry"]?.stringValue ?? ""
        let name = entry.isEmpty ? arguments[0].stringValue ?? "" : entry
        return name.isEmpty ? nil : name
    }

    var fileDescriptor: Int32 { connection.fileDescriptor }

    func handleReadable() throws { try connection.dispatchPending() }

    func close() { connection.close() }
}
