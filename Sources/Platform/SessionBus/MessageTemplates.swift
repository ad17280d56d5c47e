/// The last message built for each destination, path and member, kept as a template: sending the same call or signal
/// again (a limit notice shown again, `StatusChanged`) sends a copy of it. Building costs far more
/// than copying: libdbus rewrites the header's signature field after every top-level argument.
struct MessageTemplates {
    struct Key: Equatable {
        var destination: String?
        var path: String
        var interface: String?
        var member: String
        var arguments: [BusValue]
        var autoStart: Bool
    }

    private var templates: [String: (key: Key, message: MessageRef)] = [:]

    /// A fresh copy of the message `key` describes, built by `build` only when it differs from the
    /// last one built for the same destination, path, interface and member.
    mutating func message(for key: Key, build: () throws -> MessageRef) throws -> MessageRef {
        let slot = (key.destination ?? "") + " " + key.path + " " + (key.interface ?? "") + "." + key.member
        if let cached = templates[slot], cached.key == key { return try cached.message.copy() }
        let message = try build()
        // The template itself is never sent: a sent message is locked and carries a serial.
        templates[slot] = (key, try message.copy())
        return message
    }
}
