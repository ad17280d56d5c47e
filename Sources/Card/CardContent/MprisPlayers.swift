import FoundationEssentials
import SessionBus

/// The media players on the session bus (MPRIS: `org.mpris.MediaPlayer2.*`), asked to play a
/// playlist, stream or file (`OpenUri` on `org.mpris.MediaPlayer2.Player`).
enum MprisPlayers {
    static let namePrefix = "org.mpris.MediaPlayer2."
    static let objectPath = "/org/mpris/MediaPlayer2"

    /// Asks the running players that take the URI's scheme, in name order, until one takes `uri`;
    /// false when none runs or none took it. A player that does not say its schemes is asked too
    /// (a browser's player refuses OpenUri, and the next is asked).
    static func play(_ uri: String, busAddress: String?) -> Bool {
        guard let bus = try? BusConnection(address: busAddress) else { return false }
        defer { bus.close() }
        guard let names = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "ListNames").first?.stringArrayValue else { return false }
        let scheme = uri.firstRange(of: ":").map { String(uri[..<$0.lowerBound]).lowercased() } ?? "file"
        for player in names.filter({ $0.hasPrefix(namePrefix) }).sorted() {
            let schemes = (try? bus.call(destination: player, path: objectPath, interface: "org.freedesktop.DBus.Properties", method: "Get",
                                         arguments: [.string("org.mpris.MediaPlayer2"), .string("SupportedUriSchemes")],
                                         timeout: .seconds(2), autoStart: false))?.first?.stringArrayValue
            // Every player plays files, though some (mpv) leave `file` out of their list.
            if scheme != "file", let schemes, !schemes.map({ $0.lowercased() }).contains(scheme) { continue }
            let taken = try? bus.call(destination: player, path: objectPath, interface: "org.mpris.MediaPlayer2.Player",
                                      method: "OpenUri", arguments: [.string(uri)], timeout: .seconds(2), autoStart: false)
            if taken != nil { return true }
        }
        return false
    }
}
