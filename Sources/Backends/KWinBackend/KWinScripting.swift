import FoundationEssentials
import SessionBus

/// KWin's script loader over D-Bus (`org.kde.kwin.Scripting` on `/Scripting`): a script is loaded
/// from a file under a plugin name, then run through its own object, whose path differs between
/// KWin 5 (`/ID`) and 6 (`/Scripting/ScriptID`).
final class KWinScripting {
    static let service = "org.kde.KWin"
    static let path = "/Scripting"
    static let interface = "org.kde.kwin.Scripting"
    static let scriptInterface = "org.kde.kwin.Script"
    /// Calls to KWin give up after this: KWin answers in milliseconds when it runs at all.
    static let timeout: Duration = .seconds(5)

    private let bus: BusConnection
    /// The run path's pattern, learned at the first blocking load: KWin 5 or 6.
    private var scriptObjectPath: (Int32) -> String = { "/\($0)" }

    init(bus: BusConnection) {
        self.bus = bus
    }

    /// Unloads a script, waiting for KWin (at connect only: scripts left by an agent that crashed).
    func unloadNow(name: String) {
        _ = try? bus.call(destination: Self.service, path: Self.path, interface: Self.interface, method: "unloadScript",
                          arguments: [.string(name)], timeout: Self.timeout)
    }

    /// Loads and runs a script, waiting for KWin (at connect only).
    func loadAndRunNow(file: String, name: String) throws {
        let reply = try bus.call(destination: Self.service, path: Self.path, interface: Self.interface,
                                 method: "loadScript", arguments: [.string(file), .string(name)], timeout: Self.timeout)
        let id = try Self.scriptID(reply, name: name)
        do {
            try runNow(path: "/\(id)")
        } catch let error as BusMethodError where error.name == BusMethodError.unknownMethod
            || error.name == BusMethodError.unknownObject {
            scriptObjectPath = { "/Scripting/Script\($0)" }
            try runNow(path: scriptObjectPath(id))
        }
    }

    private func runNow(path: String) throws {
        _ = try bus.call(destination: Self.service, path: path, interface: Self.scriptInterface, method: "run",
                         timeout: Self.timeout)
    }

    /// Loads and runs a script without waiting; `done` gets nil once it runs, or the error.
    func loadAndRun(file: String, name: String, done: @escaping (Error?) -> Void) throws {
        try bus.send(destination: Self.service, path: Self.path, interface: Self.interface, method: "loadScript",
                     arguments: [.string(file), .string(name)], timeout: Self.timeout) { [weak self] result in
            guard let self else { return }
            do {
                let id = try Self.scriptID(result.get(), name: name)
                try self.bus.send(destination: Self.service, path: self.scriptObjectPath(id),
                                  interface: Self.scriptInterface, method: "run", timeout: Self.timeout) { result in
                    done(result.failure)
                }
            } catch {
                done(error)
            }
        }
    }

    /// Unloads a script without waiting; `done` runs when KWin answered (or did not in time).
    func unload(name: String, done: @escaping () -> Void = {}) throws {
        try bus.send(destination: Self.service, path: Self.path, interface: Self.interface, method: "unloadScript",
                     arguments: [.string(name)], timeout: Self.timeout) { _ in done() }
    }

    private static func scriptID(_ reply: [BusValue], name: String) throws -> Int32 {
        guard let id = reply.first?.int32Value, id >= 0 else {
            throw KWinError.scriptNotLoaded(name: name, reply: reply.first.map { "\($0)" } ?? "nothing")
        }
        return id
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
