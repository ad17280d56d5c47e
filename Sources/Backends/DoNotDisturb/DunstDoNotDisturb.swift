import FoundationEssentials
import SessionBus

extension BooleanDoNotDisturb {
    /// dunst: its `paused` property (org.dunstproject.cmd0, what `dunstctl set-paused` sets). A
    /// paused dunst holds every notification, the agent's own countdowns included, and shows them
    /// when unpaused; dunst 1.9 has no pause level a sender could pass, so no app's notifications pass.
    static func dunst(connection: BusConnection) -> BooleanDoNotDisturb {
        let interface = "org.dunstproject.cmd0"
        let dunst = RemoteObject(connection: connection, destination: NotificationsClient.busName, path: NotificationsClient.objectPath)
        return BooleanDoNotDisturb(name: "dunst", mechanism: "`paused`",
                                   read: { dunst.getBool(interface, "paused", done: $0) },
                                   write: { dunst.set(interface, "paused", .bool($0), done: $1) })
    }
}
