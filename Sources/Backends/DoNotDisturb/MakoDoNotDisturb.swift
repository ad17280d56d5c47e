import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// mako: its `do-not-disturb` mode, added to and removed from the active modes over its own
/// interface (fr.emersion.Mako `ListModes`/`SetModes`, what `makoctl mode -a` runs through busctl).
/// The mode hides notifications only where the user's mako config says `[mode=do-not-disturb]
/// invisible=1` (`doctor` checks); its criteria are the user's, so no app passes from here.
final class MakoDoNotDisturb: DoNotDisturbServer {
    static let interface = "fr.emersion.Mako"
    static let mode = "do-not-disturb"

    let name = "mako"
    let mechanism = "the `do-not-disturb` mode"
    let canPassChosenApps = false
    private let mako: RemoteObject
    /// mako 1.7 (Debian 12) crashes when its modes change while a notification is being laid out
    /// (emersion/mako#493, fixed in 1.9): a change waits this long, so the notice the agent sends
    /// in the same turn (the mode's own) is on screen first.
    private let settle: TimeInterval
    private var waiting: (at: Date, change: () -> Void)?

    /// The loop's instant.
    private let now: () -> Date

    init(connection: BusConnection, settle: TimeInterval = 1, now: @escaping () -> Date) {
        self.now = now
        mako = RemoteObject(connection: connection, destination: NotificationsClient.busName, path: "/fr/emersion/Mako")
        self.settle = settle
    }

    var nextDeadline: Date? { waiting?.at }

    func handleReadable(now: Date) {
        guard let waiting, now >= waiting.at else { return }
        self.waiting = nil
        waiting.change()
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        waiting = (now().addingTimeInterval(settle), { [weak self] in self?.addMode(save: save, done: done) })
    }

    private func addMode(save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        modes { [weak self, name] reply in
            let modes: [String]
            do {
                modes = try reply.get()
                try save(String(modes.contains(Self.mode)))
            } catch {
                return done(.failure(DoNotDisturbError(name, "reading its modes", error)))
            }
            modes.contains(Self.mode) ? done(.success(())) : self?.setModes(modes + [Self.mode], done: done)
        }
    }

    /// The user's own `do-not-disturb` stays; ours is taken out, other modes set meanwhile kept.
    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        guard saved != "true" else { return done(.success(())) }
        waiting = (now().addingTimeInterval(settle), { [weak self] in
            self?.modes { reply in
                switch reply {
                case .success(let modes): self?.setModes(modes.filter { $0 != Self.mode }, done: done)
                case .failure(let error): done(.failure(error))
                }
            }
        })
    }

    private func modes(_ done: @escaping (Result<[String], Error>) -> Void) {
        mako.call(Self.interface, "ListModes") { reply in
            done(reply.flatMap { values in
                values.first?.stringArrayValue.map { .success($0) }
                    ?? .failure(BusError.unexpectedReply(context: "ListModes", signature: values.signature))
            })
        }
    }

    private func setModes(_ modes: [String], done: @escaping (Result<Void, Error>) -> Void) {
        mako.perform(Self.interface, "SetModes", [.strings(modes)], done: done)
    }

    /// Whether the user's mako config hides notifications in the `do-not-disturb` mode: a
    /// `[mode=do-not-disturb]` section (mako's own example sets `invisible=1` in it).
    static func configHasMode(environment: [String: String]) -> Bool {
        for path in [XDGPaths.configHome(environment: environment) + "/mako/config", XDGPaths.home(environment: environment) + "/.mako/config"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            return text.split(separator: "\n").contains { $0.drop(while: \.isWhitespace).hasPrefix("[mode=\(mode)") }
        }
        return false
    }
}
