import SessionBus

/// MPRIS media players on the session bus (`org.mpris.MediaPlayer2.*`): which processes are
/// playing now, from their `PlaybackStatus` changes, so media playing in the focused app keeps
/// the user present without input. A player is known by the pid of its bus connection, matched
/// against the focused window's `_NET_WM_PID`.
final class MediaPlayerWatch {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let namePrefix = "org.mpris.MediaPlayer2"

    private let connection: BusConnection
    /// The pid of each playing player's connection, by its unique name.
    private var playing: [String: Int32] = [:]

    /// Subscribes `connection`; `onChange` is called from its `dispatchPending()` when a player
    /// starts or stops playing, or leaves the bus.
    init(connection: BusConnection, onChange: @escaping () -> Void) throws {
        self.connection = connection
        try connection.addMatch("type='signal',path='\(Self.objectPath)',interface='org.freedesktop.DBus.Properties',"
                                + "member='PropertiesChanged',arg0='\(Self.playerInterface)'")
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                + "member='NameOwnerChanged',arg0namespace='\(Self.namePrefix)'")
        connection.onSignal(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged") { [unowned self] message in
            guard message.path == Self.objectPath, message.arguments.first?.stringValue == Self.playerInterface,
                  let sender = message.sender,
                  let status = message.arguments.dropFirst().first?.dictValue?["PlaybackStatus"]?.stringValue else { return }
            if statusChanged(player: sender, playing: status == "Playing") { onChange() }
        }
        connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [unowned self] message in
            // A player gone (its name lost, or the process ended) plays nothing.
            guard let old = message.arguments.dropFirst().first?.stringValue, !old.isEmpty,
                  playing.removeValue(forKey: old) != nil else { return }
            onChange()
        }
    }

    /// Whether a player in process `pid` is playing.
    func isPlaying(pid: Int32?) -> Bool {
        guard let pid else { return false }
        return playing.values.contains(pid)
    }

    private func statusChanged(player: String, playing isPlaying: Bool) -> Bool {
        guard isPlaying else { return playing.removeValue(forKey: player) != nil }
        guard playing[player] == nil else { return false }
        // The bus daemon itself answers this, at once: no player can hold the agent here.
        guard let pid = try? connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                             arguments: [.string(player)], timeout: .milliseconds(500)).first?.uint32Value
        else { return false }
        playing[player] = Int32(bitPattern: pid)
        return true
    }
}
