import FoundationEssentials

/// A local failure of the bus connection: what failed, with the libdbus error name and message when
/// there was one. Errors sent back by the remote side are `BusMethodError`.
public enum BusError: Error, Equatable, CustomStringConvertible {
    /// The bus went away (daemon stopped, socket closed, or this connection was closed).
    case disconnected
    /// libdbus could not allocate memory while doing `context`.
    case outOfMemory(context: String)
    /// A libdbus call failed; `name` and `message` come from its DBusError.
    case failed(context: String, name: String, message: String)
    /// A message could not be built: an argument was not valid for its D-Bus type.
    case invalidArgument(context: String, reason: String)
    /// A reply or signal did not have the arguments expected.
    case unexpectedReply(context: String, signature: String)

    public var description: String {
        switch self {
        case .disconnected:
            return "D-Bus connection is closed"
        case .outOfMemory(let context):
            return "\(context): out of memory"
        case .failed(let context, let name, let message):
            return "\(context): \(name): \(message)"
        case .invalidArgument(let context, let reason):
            return "\(context): \(reason)"
        case .unexpectedReply(let context, let signature):
            return "\(context): unexpected arguments (\(signature))"
        }
    }
}

/// A D-Bus error reply: thrown by `BusConnection.call` when the remote side answered with an error,
/// and thrown by exported-object handlers to send one.
public struct BusMethodError: Error, Equatable, CustomStringConvertible {
    /// A D-Bus error name such as `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    /// Nobody owns the destination name and nothing can be activated for it.
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The destination did not answer before the timeout.
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    public static let timeout = "org.freedesktop.DBus.Error.Timeout"

    /// Whether the destination is simply not there (no owner, or it left before answering).
    public var meansNoService: Bool {
        name == Self.serviceUnknown || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}
