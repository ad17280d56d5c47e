import FoundationEssentials

/// A server whose do-not-disturb is one switch, read and written over the bus (dunst, swaync):
/// the user's value saved, the switch turned on, the saved value written back.
final class BooleanDoNotDisturb: DoNotDisturbServer {
    typealias Read = (@escaping (Result<Bool, Error>) -> Void) -> Void
    typealias Write = (Bool, @escaping (Result<Void, Error>) -> Void) -> Void

    let name: String
    let mechanism: String
    let canPassChosenApps = false
    private let read: Read
    private let write: Write

    init(name: String, mechanism: String, read: @escaping Read, write: @escaping Write) {
        self.name = name
        self.mechanism = mechanism
        self.read = read
        self.write = write
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        read { [write, name, mechanism] reply in
            do { try save(String(try reply.get())) } catch {
                return done(.failure(DoNotDisturbError(name, "reading \(mechanism)", error)))
            }
            write(true, done)
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        write(saved == "true", done)
    }
}
