import FoundationEssentials
import SessionBus

/// dunst: its `paused` property (org.dunstproject.cmd0, what `dunstctl set-paused` sets). A paused
/// dunst holds every notification, the agent's own countdowns included, and shows them when
/// unpaused; dunst 1.9 has no pause level a sender could pass, so no app's notifications pass.
final class DunstDoNotDisturb: DoNotDisturbServer {
    static let interface = "org.dunstproject.cmd0"

    let name = "dunst"
    let mechanism = "`paused`"
    let canPassChosenApps = false
    private let dunst: RemoteObject

    init(connection: BusConnection) {
        dunst = RemoteObject(connection: connection, destination: NotificationsClient.busName, path: NotificationsClient.objectPath)
    }

    func silence(save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        dunst.getBool(Self.interface, "paused") { [dunst, name] reply in
            do { try save(String(try reply.get())) } catch {
                return done(.failure(DoNotDisturbError(name, "reading `paused`", error)))
            }
            dunst.set(Self.interface, "paused", .bool(true), done: done)
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        dunst.set(Self.interface, "paused", .bool(saved == "true"), done: done)
    }
}
