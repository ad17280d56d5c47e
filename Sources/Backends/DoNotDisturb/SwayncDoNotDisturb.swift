import FoundationEssentials
import SessionBus

extension BooleanDoNotDisturb {
    /// SwayNotificationCenter: `GetDnd`/`SetDnd` on its control-center object
    /// (org.erikreider.swaync.cc, as `swaync-client --dnd-on` calls). swaync is not in Debian 12:
    /// this follows its documented interface and is tested against a protocol peer. Its per-app
    /// rules live in its own config, so no app's notifications pass from here.
    static func swaync(connection: BusConnection) -> BooleanDoNotDisturb {
        let interface = "org.erikreider.swaync.cc"
        let swaync = RemoteObject(connection: connection, destination: interface, path: "/org/erikreider/swaync/cc")
        return BooleanDoNotDisturb(name: "swaync", mechanism: "`SetDnd`",
                                   read: { swaync.bool(interface, "GetDnd", done: $0) },
                                   write: { swaync.perform(interface, "SetDnd", [.bool($0)], done: $1) })
    }
}
