import FoundationEssentials
import SessionBus

/// An object of another program on the bus, called without waiting: each answer comes from the
/// owner's `dispatchPending()`, or as `noReply` after 5 s.
struct RemoteObject {
    let connection: BusConnection
    let destination: String
    let path: String

    func call(_ interface: String, _ method: String, _ arguments: [BusValue] = [],
              done: @escaping (Result<[BusValue], Error>) -> Void) {
        do {
            try connection.send(destination: destination, path: path, interface: interface, method: method,
                                arguments: arguments, timeout: .seconds(5), onReply: done)
        } catch {
            done(.failure(error))
        }
    }

    /// A method answering nothing the caller needs.
    func perform(_ interface: String, _ method: String, _ arguments: [BusValue] = [],
                 done: @escaping (Result<Void, Error>) -> Void) {
        call(interface, method, arguments) { done($0.map { _ in }) }
    }

    /// The first value of a method's answer, as a Bool.
    func bool(_ interface: String, _ method: String, _ arguments: [BusValue] = [],
              done: @escaping (Result<Bool, Error>) -> Void) {
        call(interface, method, arguments) { reply in
            done(reply.flatMap { values in
                values.first?.boolValue.map { .success($0) }
                    ?? .failure(BusError.unexpectedReply(context: "\(method) of \(destination)", signature: values.signature))
            })
        }
    }

    func getBool(_ interface: String, _ property: String, done: @escaping (Result<Bool, Error>) -> Void) {
        bool("org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(property)], done: done)
    }

    func set(_ interface: String, _ property: String, _ value: BusValue, done: @escaping (Result<Void, Error>) -> Void) {
        perform("org.freedesktop.DBus.Properties", "Set", [.string(interface), .string(property), .variant(value)], done: done)
    }
}
