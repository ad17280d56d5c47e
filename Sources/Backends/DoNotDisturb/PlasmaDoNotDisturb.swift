import FoundationEssentials
import SessionBus

/// KDE Plasma: `Inhibit` on org.freedesktop.Notifications, `UnInhibit` with its cookie to end it.
/// Plasma drops an inhibition when the caller's connection closes, so a killed agent leaves
/// nothing behind and the saved state only records that the inhibition was the agent's. The
/// user's per-app "show in do-not-disturb mode" choices apply; none can be set from here.
final class PlasmaDoNotDisturb: DoNotDisturbServer {
    let name = "KDE Plasma"
    let mechanism = "`Inhibit`"
    let canPassChosenApps = false
    private let plasma: RemoteObject
    private var cookie: UInt32?

    init(connection: BusConnection) {
        plasma = RemoteObject(connection: connection, destination: NotificationsClient.busName, path: NotificationsClient.objectPath)
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        do { try save("inhibited") } catch { return done(.failure(error)) }
        plasma.call(NotificationsClient.interface, "Inhibit",
                    [.string(NotificationsClient.desktopEntry), .string("Screen Time mode"), .vardict([:])]) { [weak self, name] reply in
            switch reply {
            case .success(let values):
                guard let cookie = values.first?.uint32Value else {
                    return done(.failure(DoNotDisturbError(name, "Inhibit", BusError.unexpectedReply(context: "Inhibit", signature: values.signature))))
                }
                self?.cookie = cookie
                done(.success(()))
            case .failure(let error):
                done(.failure(DoNotDisturbError(name, "Inhibit", error)))
            }
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        guard let cookie else { return done(.success(())) }
        self.cookie = nil
        plasma.perform(NotificationsClient.interface, "UnInhibit", [.uint32(cookie)], done: done)
    }
}
