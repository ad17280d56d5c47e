import FoundationEssentials

/// GNOME: `org.gnome.desktop.notifications show-banners`, read and written by a short-lived
/// `gsettings` child whose output the loop collects (dconf keeps the key across logouts, hence
/// the saved state on disk). GNOME's per-app switches do not override the global one, so no app
/// passes while banners are off.
final class GnomeDoNotDisturb: DoNotDisturbServer {
    static let schema = "org.gnome.desktop.notifications"

    let name = "GNOME Shell"
    let mechanism = "`show-banners`"
    let canPassChosenApps = false
    private let gsettings: String?
    private let environment: [String: String]
    private var child: ChildProcess?
    private var finished: ((Result<String, Error>) -> Void)?

    init(environment: [String: String]) {
        self.environment = environment
        gsettings = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/gsettings" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func silence(save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        run(["get", Self.schema, "show-banners"]) { [weak self, name] reply in
            do { try save(Self.word(try reply.get())) } catch {
                return done(.failure(DoNotDisturbError(name, "reading show-banners", error)))
            }
            self?.run(["set", Self.schema, "show-banners", "false"]) { done($0.map { _ in }) }
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        run(["set", Self.schema, "show-banners", saved == "false" ? "false" : "true"]) { done($0.map { _ in }) }
    }

    /// gsettings' answer without its newline: `true`.
    static func word(_ output: String) -> String {
        output.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
    }

    var pollDescriptor: Int32 { child?.fileDescriptor ?? -1 }

    var nextDeadline: Date? { child?.deadline }

    func handleReadable(now: Date) {
        guard let child else { return }
        let outcome: Result<String, Error>
        do {
            if now >= child.deadline {
                child.stop()
                outcome = .failure(DoNotDisturbError(name, child.commandLine, "no answer within 5 s"))
            } else {
                guard let status = try child.readAvailable() else { return }
                let output = String(decoding: child.output, as: UTF8.self)
                outcome = status == 0 ? .success(output) : .failure(DoNotDisturbError(name, child.commandLine, "exit status \(status)"))
            }
        } catch {
            outcome = .failure(error)
        }
        self.child = nil
        let finished = self.finished
        self.finished = nil
        finished?(outcome)
    }

    private func run(_ arguments: [String], then: @escaping (Result<String, Error>) -> Void) {
        guard let gsettings else { return then(.failure(DoNotDisturbError(name, "gsettings", "not found in PATH"))) }
        do {
            child = try ChildProcess(gsettings, arguments, environment: environment, timeout: 5, now: Date())
            finished = then
        } catch {
            then(.failure(error))
        }
    }
}
