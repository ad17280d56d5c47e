import FoundationEssentials

/// One notification server's do-not-disturb, as the agent drives it. Nothing here waits: calls go
/// out on the agent's bus (or to a short-lived child) and `done` runs when the answer arrives,
/// from the owner's loop. `silence` reads the user's own state first and hands it to `save`,
/// which writes it to disk before anything changes, so a killed agent's next start can give it back.
public protocol DoNotDisturbServer: AnyObject {
    /// The server, as logs and `doctor` name it: "dunst".
    var name: String { get }
    /// How do-not-disturb is set, for `doctor`: "`paused`".
    var mechanism: String { get }
    /// Whether single apps' notifications can pass while the rest is silenced (Social's exceptions).
    var canPassChosenApps: Bool { get }
    /// Reads the user's state, hands it to `save`, then silences the server. The apps `allowing`
    /// names (desktop ids) pass: asked only of a server that `canPassChosenApps`, else empty.
    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void)
    /// Gives back the state `silence` saved (perhaps by an agent since killed).
    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void)
    /// A descriptor to poll while the server waits for a child process; -1 otherwise.
    var pollDescriptor: Int32 { get }
    /// The descriptor is readable (or the child's deadline passed: `now` past it).
    func handleReadable(now: Date)
    var nextDeadline: Date? { get }
}

extension DoNotDisturbServer {
    var pollDescriptor: Int32 { -1 }
    func handleReadable(now: Date) {}
    var nextDeadline: Date? { nil }
}

/// Why do-not-disturb could not be set or given back, with what was being done.
struct DoNotDisturbError: Error, CustomStringConvertible {
    let description: String

    init(_ server: String, _ what: String, _ cause: Any) {
        description = "\(server): \(what): \(cause)"
    }
}
