import FoundationEssentials

/// A message as received: its header fields and decoded arguments. Given to signal handlers and monitors.
public struct BusMessage: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case methodCall, methodReturn, error, signal, unknown }

    public var kind: Kind
    /// The sender's unique name (`:1.42`); nil on a peer-to-peer connection.
    public var sender: String?
    public var destination: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var serial: UInt32
    /// For replies and errors: the serial of the call answered.
    public var replySerial: UInt32
    public var arguments: [BusValue]

    public init(kind: Kind, sender: String? = nil, destination: String? = nil, path: String? = nil,
                interface: String? = nil, member: String? = nil, errorName: String? = nil,
                serial: UInt32 = 0, replySerial: UInt32 = 0, arguments: [BusValue] = []) {
        self.kind = kind
        self.sender = sender
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.serial = serial
        self.replySerial = replySerial
        self.arguments = arguments
    }

    init(_ message: MessageRef) {
        self.init(kind: message.kind, sender: message.sender, destination: message.destination,
                  path: message.path, interface: message.interface, member: message.member,
                  errorName: message.errorName, serial: message.serial, replySerial: message.replySerial,
                  arguments: message.arguments())
    }
}
