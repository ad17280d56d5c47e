/// Why a KWin provider could not start or act, with what to do about it.
public enum KWinError: Error, Equatable, CustomStringConvertible {
    /// KWin answered loadScript with no script id (-1: a script of that name is loaded already).
    case scriptNotLoaded(name: String, reply: String)
    /// The first activation report did not come back from the script in time.
    case scriptSilent(seconds: Int)
    /// The agent's bus name cannot be put into the script (not a unique name).
    case unexpectedBusName(String)
    /// KWin left the session bus (restarted or crashed), with the scripts it ran.
    case kwinLeft
    /// A file (kwinrc, a script) could not be read, parsed or written.
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case .scriptNotLoaded(let name, let reply):
            return "KWin did not load the script \(name) (answered \(reply)); is another screentime agent running?"
        case .scriptSilent(let seconds):
            return "the KWin script did not report back within \(seconds) s; check KWin's log (journalctl --user -t kwin_wayland)"
        case .unexpectedBusName(let name):
            return "the agent's bus name \(name) is not a unique connection name"
        case .kwinLeft:
            return "KWin left the session bus (restarted or crashed); connecting again"
        case .file(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
