import FoundationEssentials
import SessionBus

/// logind on the system bus: the machine going to sleep and waking (`PrepareForSleep`), and this
/// session being locked (`Lock`/`Unlock`, and `LockedHint` for lockers that only set the hint).
/// Signals only: the agent makes no blocking call to the system bus.
final class LogindWatch {
    enum Event: Equatable {
        case sleeping(Bool)
        case locked(Bool)
    }

    static let busName = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let defaultSystemBus = "unix:path=/run/dbus/system_bus_socket"

    let connection: BusConnection
    /// The session's object, from XDG_SESSION_ID; nil outside a logind session (then only sleep is watched).
    let sessionPath: String?

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS, else the standard socket) and
    /// subscribes; `onEvent` is called from `connection.dispatchPending()`.
    init(environment: [String: String], onEvent: @escaping (Event) -> Void) throws {
        connection = try BusConnection(address: environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? Self.defaultSystemBus)
        let fromLogind = "type='signal',sender='\(Self.busName)'"
        try connection.addMatch("\(fromLogind),path='\(Self.managerPath)',interface='\(Self.managerInterface)',member='PrepareForSleep'")
        connection.onSignal(interface: Self.managerInterface, member: "PrepareForSleep") { message in
            if let sleeping = message.arguments.first?.boolValue { onEvent(.sleeping(sleeping)) }
        }
        sessionPath = environment["XDG_SESSION_ID"].flatMap { $0.isEmpty ? nil : Self.sessionPath(id: $0) }
        guard let sessionPath else { return }
        try connection.addMatch("\(fromLogind),path='\(sessionPath)',interface='\(Self.sessionInterface)'")
        try connection.addMatch("\(fromLogind),path='\(sessionPath)',interface='\(Self.propertiesInterface)',member='PropertiesChanged'")
        connection.onSignal(interface: Self.sessionInterface) { message in
            guard message.path == sessionPath else { return }
            switch message.member {
            case "Lock": onEvent(.locked(true))
            case "Unlock": onEvent(.locked(false))
            default: break
            }
        }
        connection.onSignal(interface: Self.propertiesInterface, member: "PropertiesChanged") { message in
            guard message.path == sessionPath, message.arguments.first?.stringValue == Self.sessionInterface,
                  let locked = message.arguments.dropFirst().first?.dictValue?["LockedHint"]?.boolValue else { return }
            onEvent(.locked(locked))
        }
    }

    /// Asks when the session began (its `Timestamp` property, CLOCK_REALTIME microseconds):
    /// `answer` gets it from a later `dispatchPending()`, or nil (no such session, no answer in
    /// 5 s). False when there is no session to ask about.
    func askSessionStart(_ answer: @escaping (Date?) -> Void) -> Bool {
        guard let sessionPath else { return false }
        do {
            try connection.send(destination: Self.busName, path: sessionPath, interface: Self.propertiesInterface, method: "Get",
                                arguments: [.string(Self.sessionInterface), .string("Timestamp")], timeout: .seconds(5)) { result in
                guard case .success(let values) = result, case .variant(.uint64(let micro))? = values.first, micro > 0 else { return answer(nil) }
                answer(Date(timeIntervalSince1970: Double(micro) / 1_000_000))
            }
            return true
        } catch {
            return false
        }
    }

    /// logind's object path for a session id: sd-bus escaping, every byte outside [A-Za-z0-9]
    /// (and a leading digit) as `_xx` in hex, so session "2" is `/org/freedesktop/login1/session/_32`.
    static func sessionPath(id: String) -> String {
        var escaped = ""
        for (index, byte) in id.utf8.enumerated() {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let isDigit = byte >= 0x30 && byte <= 0x39
            if isLetter || (isDigit && index > 0) {
                escaped.append(Character(Unicode.Scalar(byte)))
            } else {
                escaped += (byte < 16 ? "_0" : "_") + String(byte, radix: 16)
            }
        }
        return managerPath + "/session/" + escaped
    }
}
