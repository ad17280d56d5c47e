import FoundationEssentials
import SessionBus

/// xfce4-notifyd: the `/do-not-disturb` property of its xfconf channel, over xfconf's D-Bus
/// interface (what `xfconf-query -c xfce4-notifyd -p /do-not-disturb` sets); xfconf keeps it
/// across logouts, hence the saved state on disk. A property never set is given back by resetting it.
final class XfceDoNotDisturb: DoNotDisturbServer {
    static let interface = "org.xfce.Xfconf"
    static let channel = BusValue.string("xfce4-notifyd")
    static let property = BusValue.string("/do-not-disturb")
    static let unset = "unset"

    let name = "xfce4-notifyd"
    let mechanism = "xfconf `/do-not-disturb`"
    let canPassChosenApps = false
    private let xfconf: RemoteObject

    init(connection: BusConnection) {
        xfconf = RemoteObject(connection: connection, destination: Self.interface, path: "/org/xfce/Xfconf")
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        xfconf.bool(Self.interface, "GetProperty", [Self.channel, Self.property]) { [xfconf, name] reply in
            do {
                switch reply {
                case .success(let on): try save(String(on))
                case .failure(let error as BusMethodError) where error.name.hasSuffix("PropertyNotFound"): try save(Self.unset)
                case .failure(let error): throw error
                }
            } catch {
                return done(.failure(DoNotDisturbError(name, "reading /do-not-disturb", error)))
            }
            xfconf.perform(Self.interface, "SetProperty", [Self.channel, Self.property, .variant(.bool(true))], done: done)
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        if saved == Self.unset {
            xfconf.perform(Self.interface, "ResetProperty", [Self.channel, Self.property, .bool(false)], done: done)
        } else {
            xfconf.perform(Self.interface, "SetProperty", [Self.channel, Self.property, .variant(.bool(saved == "true"))], done: done)
        }
    }
}
