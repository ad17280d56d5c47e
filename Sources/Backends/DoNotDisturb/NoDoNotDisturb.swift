import FoundationEssentials

/// A notification server offering no do-not-disturb the agent knows (or none at all):
/// notifications stay on in every mode, and `doctor` says why.
final class NoDoNotDisturb: DoNotDisturbServer {
    let name: String
    let mechanism = "none"
    let canPassChosenApps = false

    init(server: String?) {
        name = server ?? "no notification server"
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        done(.failure(DoNotDisturbError(name, "silencing", "no do-not-disturb the agent can set")))
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) { done(.success(())) }
}
