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
    /// Players reported playing whose pid the bus daemon has not told yet.
    private var awaitingPID: Set<String> = []
    private let onChange: () -> Void

    /// Subscribes `connection`; `onChange` is called from its `dispatchPending()` when a player
    /// starts or stops playing, or leaves the bus.
    init(connection: BusConnection, onChange: @escaping () -> Void) throws {
        self.connection = connection
        self.onChange = onChange
        try connection.addMatch("type='signal',path='\(Self.objectPath)',interface='org.freedesktop.DBus.Properties',"
                                + "member='PropertiesChanged',arg0='\(Self.playerInterface)'")
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                + "member='NameOwnerChanged',arg0namespace='\(Self.namePrefix)'")
        connection.onSignal(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged") { [unowned self] message in
            guard message.path == Self.objectPath, message.arguments.first?.stringValue == Self.playerInterface,
                  let sender = message.sender,
                  let status = message.arguments.dropFirst().first?.dictValue?["PlaybackStatus"]?.stringValue else { return }
            if statusChanged(player: sender, playing: status == "Playing") { self.onChange() }
        }
        connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [unowned self] message in
            // A player gone (its name lost, or the process ended) plays nothing.
            guard let old = message.arguments.dropFirst().first?.stringValue, !old.isEmpty,
                  playing.removeValue(forKey: old) != nil || awaitingPID.remove(old) != nil else { return }
            self.onChange()
        }
    }

    /// Whether a player in process `pid` is playing.
    func isPlaying(pid: Int32?) -> Bool {
        guard let pid else { return false }
        return playing.values.contains(pid)
    }

    private func statusChanged(player: String, playing isPlaying: Bool) -> Bool {
        guard isPlaying else {
            awaitingPID.remove(player)
            return playing.removeValue(forKey: player) != nil
        }
        guard playing[player] == nil, !awaitingPID.contains(player) else { return false }
        // The bus daemon answers this; its reply comes back through dispatch like any other, so
        // the loop never waits. A player that stops before the answer stays off the list.
        awaitingPID.insert(player)
        do {
            try connection.send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                arguments: [.string(player)], timeout: .seconds(2)) { [weak self] reply in
                guard let self, self.awaitingPID.remove(player) != nil,
                      case .success(let arguments) = reply, let pid = arguments.first?.uint32Value else { return }
                self.playing[player] = Int32(bitPattern: pid)
                self.onChange()
            }
        } catch {
            awaitingPID.remove(player)
        }
        return false
    }
}
