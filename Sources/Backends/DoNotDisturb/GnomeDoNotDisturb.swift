import ChildProcesses
import FoundationEssentials
import SessionBus

/// GNOME: `org.gnome.desktop.notifications show-banners`, read and written inside the shell by
/// the screentime extension (`GetShowBanners`, `SetShowBanners`): GNOME 43 applies a dconf change
/// made by another process on dconf's worker thread, where gjs can deadlock against the shell's
/// main thread and the whole shell stops. Without the extension, short-lived `gsettings` children
/// do it, whose output the loop collects. dconf keeps the keys across logouts, hence the saved
/// state on disk. Social's exceptions pass through GNOME's per-app switches: the global switch
/// stays on and each app GNOME has seen notify (`application-children`, read by gsettings) but
/// the allowed ones gets its own `show-banners` off, each app's own value saved first.
final class GnomeDoNotDisturb: DoNotDisturbServer {
    static let schema = "org.gnome.desktop.notifications"
    /// What the saved state of the per-app switches starts with: `apps:id=true,id=false`.
    static let perAppPrefix = "apps:"

    let name = "GNOME Shell"
    let mechanism = "`show-banners`"
    let canPassChosenApps = true
    /// The extension's service (desktop/gnome-shell/service.js): its bus name and interface.
    static let extensionService = "org.screentime.Shell"
    private let shell: RemoteObject
    private let gsettings: String?
    private let environment: [String: String]
    private var child: ChildProcess?
    private var finished: ((Result<String, Error>) -> Void)?

    /// The loop's instant.
    private let now: () -> Date

    init(connection: BusConnection, environment: [String: String], now: @escaping () -> Date) {
        shell = RemoteObject(connection: connection, destination: Self.extensionService, path: "/org/screentime/Shell")
        self.now = now
        self.environment = environment
        gsettings = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/gsettings" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func silence(allowing apps: [String], save: @escaping (String) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        guard apps.isEmpty else { return silenceApps(except: Set(apps.map(Self.canonicalID)), save: save, done: done) }
        read([""]) { [weak self, name] reply in
            do { try save(String(try reply.get()[0])) } catch {
                return done(.failure(DoNotDisturbError(name, "reading show-banners", error)))
            }
            self?.write([("", false)], done: done)
        }
    }

    func restore(_ saved: String, done: @escaping (Result<Void, Error>) -> Void) {
        guard saved.hasPrefix(Self.perAppPrefix) else { return write([("", saved != "false")], done: done) }
        let pairs = saved.dropFirst(Self.perAppPrefix.count).split(separator: ",").compactMap { pair -> (String, Bool)? in
            let parts = pair.split(separator: "=")
            return parts.count == 2 ? (String(parts[0]), parts[1] != "false") : nil
        }
        write(pairs, done: done)
    }

    /// Every app GNOME knows but `allowed` loses its banners; each one's own value is saved first.
    private func silenceApps(except allowed: Set<String>, save: @escaping (String) throws -> Void,
                             done: @escaping (Result<Void, Error>) -> Void) {
        run(["get", Self.schema, "application-children"]) { [weak self, name] reply in
            let muted: [String]
            do { muted = Self.strings(inVariant: try reply.get()).filter { !allowed.contains($0) } } catch {
                return done(.failure(DoNotDisturbError(name, "reading application-children", error)))
            }
            self?.read(muted) { reply in
                do {
                    let values = try reply.get()
                    try save(Self.perAppPrefix + zip(muted, values).map { "\($0)=\($1)" }.joined(separator: ","))
                } catch {
                    return done(.failure(DoNotDisturbError(name, "reading the apps' show-banners", error)))
                }
                self?.write(muted.map { ($0, false) }, done: done)
            }
        }
    }

    // Reads go where writes go: the shell's own value includes a write it has not yet handed to
    // dconf, which a `gsettings get` right after would miss.

    /// `show-banners` of each app (the global switch for ""), in turn: through the extension, or
    /// the rest through gsettings once the extension is not on the bus (or too old to offer it).
    private func read(_ apps: [String], values: [Bool] = [], done: @escaping (Result<[Bool], Error>) -> Void) {
        guard let app = apps.first else { return done(.success(values)) }
        shell.bool(Self.extensionService, "GetShowBanners", [.string(app)]) { [weak self] reply in
            switch reply {
            case .success(let show): self?.read(Array(apps.dropFirst()), values: values + [show], done: done)
            case .failure(let error) where Self.meansNoExtension(error):
                self?.runEach(apps.map { ["get", Self.schemaPath(of: $0), "show-banners"] }) { done($0.map { values + $0.map { Self.word($0) != "false" } }) }
            case .failure(let error): done(.failure(error))
            }
        }
    }

    /// Sets `show-banners` of each app (the global switch for ""), in turn, as `read` reads it.
    private func write(_ changes: [(app: String, show: Bool)], done: @escaping (Result<Void, Error>) -> Void) {
        guard let (app, show) = changes.first else { return done(.success(())) }
        shell.perform(Self.extensionService, "SetShowBanners", [.string(app), .bool(show)]) { [weak self] result in
            switch result {
            case .success: self?.write(Array(changes.dropFirst()), done: done)
            case .failure(let error) where Self.meansNoExtension(error):
                self?.runEach(changes.map { ["set", Self.schemaPath(of: $0.app), "show-banners", String($0.show)] }) { done($0.map { _ in }) }
            case .failure(let error): done(.failure(error))
            }
        }
    }

    /// No extension on the bus, or one from before its show-banners methods.
    private static func meansNoExtension(_ error: Error) -> Bool {
        guard let error = error as? BusMethodError else { return false }
        return error.meansNoService || error.name == BusMethodError.unknownMethod
    }

    /// The schema (with its path for an app) as gsettings names it: the global one for "".
    private static func schemaPath(of app: String) -> String { app.isEmpty ? schema : appSchema(app) }

    /// The relocatable per-app schema, and an app's path, as GNOME Shell keeps them.
    static let appSchemaID = "\(schema).application"
    static func appPath(_ id: String) -> String { "/org/gnome/desktop/notifications/application/\(id)/" }

    /// The per-app schema at the app's path, as gsettings names it.
    static func appSchema(_ id: String) -> String { "\(appSchemaID):\(appPath(id))" }

    /// GNOME Shell's key for an app: its desktop id lower-cased, anything but letters, digits and
    /// dashes made a dash, no two dashes in a row (`org.gnome.Nautilus` is `org-gnome-nautilus`).
    static func canonicalID(_ desktopID: String) -> String {
        var id = ""
        for character in desktopID.lowercased() {
            let kept: Character = character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
            if kept == "-" && id.last == "-" { continue }
            id.append(kept)
        }
        return id
    }

    /// The strings of gsettings' printed `as`: `['a', 'b']` or `@as []`.
    static func strings(inVariant printed: String) -> [String] {
        printed.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
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

    /// Runs gsettings with each argument list in turn; `then` gets their outputs, or the first failure.
    private func runEach(_ commands: [[String]], outputs: [String] = [], then: @escaping (Result<[String], Error>) -> Void) {
        guard let first = commands.first else { return then(.success(outputs)) }
        run(first) { [weak self] reply in
            switch reply {
            case .success(let output): self?.runEach(Array(commands.dropFirst()), outputs: outputs + [output], then: then)
            case .failure(let error): then(.failure(error))
            }
        }
    }

    private func run(_ arguments: [String], then: @escaping (Result<String, Error>) -> Void) {
        guard let gsettings else { return then(.failure(DoNotDisturbError(name, "gsettings", "not found in PATH"))) }
        do {
            child = try ChildProcess(gsettings, arguments, environment: environment, timeout: 5, now: now())
            finished = then
        } catch {
            then(.failure(error))
        }
    }
}
