import FoundationEssentials
import SessionBus

/// SwayNotificationCenter: `GetDnd`/`SetDnd` on its control-center interface
/// (org.erikreider.swaync.cc, as `swaync-client --dnd-on` calls). swaync is not in Debian 12: this
/// follows its documented interface and is tested against a protocol peer. Its per-app rules live
/// in its own config, so no app's notifications pass from here.
final class SwayncDoNotDisturb: DoNotDisturbServer {
    static let busName = "org.erikreider.swaync.cc"
    static let objectPath = "/org/erikreider/swaync/cc"

    let name = "swaync"
    let mechanism = "`SetDnd`"
    let canPassChosenApps = false
    private let swaync: RemoteObject

    init(connection: BusConnection) {
        swaync = RemoteObject(connection: connection, destination: Self.busName, path: Self.objectPath)
    }

    func silence(save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        swaync.bool(Self.busName, "GetDnd") { [swaync, name] reply in
            do { try save(String(try reply.get())) } catch {
                return done(.failure(DoNotDisturbError(name, "reading GetDnd", error)))
            }
            swaync.perform(Self.busName, "SetDnd", [.bool(true)], done: done)
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        swaync.perform(Self.busName, "SetDnd", [.bool(saved == "true")], done: done)
    }
}
