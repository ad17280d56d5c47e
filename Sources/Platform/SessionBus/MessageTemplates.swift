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

        /// Whether `other` is sent to the same destination, path, interface and member.
        func sharesSlot(with other: Key) -> Bool {
            member == other.member && path == other.path && interface == other.interface && destination == other.destination
        }
    }

    /// A handful of slots (the agent sends a few kinds of message), searched in order: cheaper
    /// than hashing four strings on every send.
    private var templates: [(key: Key, message: MessageRef)] = []

    /// A fresh copy of the message `key` describes, built by `build` only when it differs from the
    /// last one built for the same destination, path, interface and member.
    mutating func message(for key: Key, build: () throws -> MessageRef) throws -> MessageRef {
        let slot = templates.firstIndex { $0.key.sharesSlot(with: key) }
        if let slot, templates[slot].key == key { return try templates[slot].message.copy() }
        let message = try build()
        // The template itself is never sent: a sent message is locked and carries a serial.
        let template = (key, try message.copy())
        if let slot { templates[slot] = template } else { templates.append(template) }
        return message
    }
}
