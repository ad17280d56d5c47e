import FoundationEssentials
import SessionBus

/// The media players on the session bus (MPRIS: `org.mpris.MediaPlayer2.*`), asked to play a
/// playlist, stream or file (`OpenUri` on `org.mpris.MediaPlayer2.Player`).
enum MprisPlayers {
    static let namePrefix = "org.mpris.MediaPlayer2."

    /// Asks the running players, in name order, until one takes `uri`; false when none runs or none took it.
    static func play(_ uri: String, busAddress: String?) -> Bool {
        guard let bus = try? BusConnection(address: busAddress) else { return false }
        defer { bus.close() }
        guard let names = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "ListNames").first?.stringArrayValue else { return false }
        for player in names.filter({ $0.hasPrefix(namePrefix) }).sorted() {
            let taken = try? bus.call(destination: player, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                                      method: "OpenUri", arguments: [.string(uri)], timeout: .seconds(2), autoStart: false)
            if taken != nil { return true }
        }
        return false
    }
}
