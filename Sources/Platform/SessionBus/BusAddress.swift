import FoundationEssentials

/// D-Bus server addresses (`unix:path=/run/user/1000/bus,guid=…;tcp:host=…`).
public enum BusAddress {
    /// `address` without its `guid=` keys. libdbus refuses a server whose GUID differs from the one
    /// in the address, and a restarted bus has a new GUID: an address written by `dbus-launch`
    /// (which carries the first daemon's GUID) could never reach the bus again after a restart.
    public static func withoutGUID(_ address: String) -> String {
        address.split(separator: ";", omittingEmptySubsequences: false).map { entry -> String in
            guard let colon = entry.firstIndex(of: ":") else { return String(entry) }
            let keys = entry[entry.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
            return entry[...colon] + keys.filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
        }.joined(separator: ";")
    }
}
