import CDBus
import FoundationEssentials

// The one file of this module that calls libdbus. Connections and messages become small typed
// values; every DBusError becomes a `BusError` (local failure) or a `BusMethodError` (error reply).

/// D-Bus type codes (the C macros are casts of character literals, which Swift does not import).
enum TypeCode {
    static let invalid = Int32(0)
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let signature = Int32(UInt8(ascii: "g"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let structure = Int32(UInt8(ascii: "r"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
}

/// Runs `body` with an initialised DBusError and turns a set error into a typed one.
private func checkingError<T>(_ context: String, _ body: (UnsafeMutablePointer<DBusError>) -> T) throws -> T {
    var error = DBusError()
    dbus_error_init(&error)
    let result = body(&error)
    if dbus_error_is_set(&error) != 0 {
        let name = error.name.map { String(cString: $0) } ?? "unknown"
        let message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        if name == "org.freedesktop.DBus.Error.Disconnected" { throw BusError.disconnected }
        if name == "org.freedesktop.DBus.Error.NoMemory" { throw BusError.outOfMemory(context: context) }
        throw BusError.failed(context: context, name: name, message: message)
    }
    return result
}

/// libdbus refuses (with a warning, or an abort under DBUS_FATAL_WARNINGS) names it considers
/// invalid; check them first so a bad name is a typed error instead.
enum NameCheck {
    static func path(_ s: String, _ context: String) throws {
        if dbus_validate_path(s, nil) == 0 { throw BusError.invalidArgument(context: context, reason: "invalid object path \"\(s)\"") }
    }
    static func interface(_ s: String, _ context: String) throws {
        if dbus_validate_interface(s, nil) == 0 { throw BusError.invalidArgument(context: context, reason: "invalid interface name \"\(s)\"") }
    }
    static func member(_ s: String, _ context: String) throws {
        if dbus_validate_member(s, nil) == 0 { throw BusError.invalidArgument(context: context, reason: "invalid member name \"\(s)\"") }
    }
    static func busName(_ s: String, _ context: String) throws {
        if dbus_validate_bus_name(s, nil) == 0 { throw BusError.invalidArgument(context: context, reason: "invalid bus name \"\(s)\"") }
    }
    static func errorName(_ s: String, _ context: String) throws {
        if dbus_validate_error_name(s, nil) == 0 { throw BusError.invalidArgument(context: context, reason: "invalid error name \"\(s)\"") }
    }
}

// MARK: - Messages

/// One reference to a DBusMessage, released on deinit.
final class MessageRef {
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// Adds a reference to a message libdbus lends (in a filter callback).
    init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        dbus_message_ref(pointer)
    }

    deinit { dbus_message_unref(pointer) }

    static func methodCall(destination: String?, path: String, interface: String?, member: String) throws -> MessageRef {
        let context = "building call \(interface ?? "").\(member) on \(path)"
        if let destination { try NameCheck.busName(destination, context) }
        try NameCheck.path(path, context)
        if let interface { try NameCheck.interface(interface, context) }
        try NameCheck.member(member, context)
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            throw BusError.outOfMemory(context: context)
        }
        return MessageRef(owning: message)
    }

    static func signal(path: String, interface: String, member: String) throws -> MessageRef {
        let context = "building signal \(interface).\(member) on \(path)"
        try NameCheck.path(path, context)
        try NameCheck.interface(interface, context)
        try NameCheck.member(member, context)
        guard let message = dbus_message_new_signal(path, interface, member) else {
            throw BusError.outOfMemory(context: context)
        }
        return MessageRef(owning: message)
    }

    func methodReturn() throws -> MessageRef {
        guard let reply = dbus_message_new_method_return(pointer) else {
            throw BusError.outOfMemory(context: "building reply to \(member ?? "")")
        }
        return MessageRef(owning: reply)
    }

    func errorReply(name: String, message text: String) throws -> MessageRef {
        let context = "building error reply to \(member ?? "")"
        try NameCheck.errorName(name, context)
        guard let reply = dbus_message_new_error(pointer, name, withoutNUL(text)) else {
            throw BusError.outOfMemory(context: context)
        }
        return MessageRef(owning: reply)
    }

    /// A new, unsent message with this one's header and body (no serial yet): sending the same
    /// message again costs a copy instead of building it anew.
    func copy() throws -> MessageRef {
        guard let copy = dbus_message_copy(pointer) else {
            throw BusError.outOfMemory(context: "copying \(member ?? "message")")
        }
        return MessageRef(owning: copy)
    }

    /// Whether the bus may start an activatable service to receive this call (D-Bus activation).
    func setAutoStart(_ on: Bool) { dbus_message_set_auto_start(pointer, on ? 1 : 0) }

    var kind: BusMessage.Kind {
        switch dbus_message_get_type(pointer) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: return .error
        case DBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .unknown
        }
    }

    var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    var destination: String? { dbus_message_get_destination(pointer).map { String(cString: $0) } }
    var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }
    var serial: UInt32 { dbus_message_get_serial(pointer) }
    var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }
    var noReplyExpected: Bool { dbus_message_get_no_reply(pointer) != 0 }

    // MARK: Body

    func append(_ values: [BusValue]) throws {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iter)
        for value in values {
            try Self.append(value, to: &iter)
        }
    }

    private static func append(_ value: BusValue, to iter: inout DBusMessageIter) throws {
        var ok: dbus_bool_t = 1
        switch value {
        case .string(let s):
            ok = appendString(withoutNUL(s), type: TypeCode.string, to: &iter)
        case .objectPath(let s):
            try NameCheck.path(s, "appending object path")
            ok = appendString(s, type: TypeCode.objectPath, to: &iter)
        case .signature(let s):
            if dbus_signature_validate(s, nil) == 0 {
                throw BusError.invalidArgument(context: "appending signature", reason: "invalid signature \"\(s)\"")
            }
            ok = appendString(s, type: TypeCode.signature, to: &iter)
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, TypeCode.boolean, &v)
        case .byte(let b):
            var v = b
            ok = dbus_message_iter_append_basic(&iter, TypeCode.byte, &v)
        case .int32(let n):
            var v = n
            ok = dbus_message_iter_append_basic(&iter, TypeCode.int32, &v)
        case .uint32(let n):
            var v = n
            ok = dbus_message_iter_append_basic(&iter, TypeCode.uint32, &v)
        case .int64(let n):
            var v = n
            ok = dbus_message_iter_append_basic(&iter, TypeCode.int64, &v)
        case .uint64(let n):
            var v = n
            ok = dbus_message_iter_append_basic(&iter, TypeCode.uint64, &v)
        case .double(let d):
            var v = d
            ok = dbus_message_iter_append_basic(&iter, TypeCode.double, &v)
        case .array(let elementSignature, let elements):
            for element in elements where element.signature != elementSignature {
                throw BusError.invalidArgument(context: "appending array of \(elementSignature)",
                                               reason: "element of type \(element.signature)")
            }
            try container(TypeCode.array, signature: elementSignature, in: &iter) { sub in
                for element in elements { try append(element, to: &sub) }
            }
        case .dict(let valueSignature, let entries):
            // Sorted keys keep messages byte-for-byte reproducible.
            try container(TypeCode.array, signature: "{s" + valueSignature + "}", in: &iter) { sub in
                for key in entries.keys.sorted() {
                    guard let entryValue = entries[key] else { continue }
                    if entryValue.signature != valueSignature {
                        throw BusError.invalidArgument(context: "appending dict entry \"\(key)\"",
                                                       reason: "value of type \(entryValue.signature), expected \(valueSignature)")
                    }
                    try container(TypeCode.dictEntry, signature: nil, in: &sub) { entry in
                        try append(.string(key), to: &entry)
                        try append(entryValue, to: &entry)
                    }
                }
            }
        case .structure(let fields):
            try container(TypeCode.structure, signature: nil, in: &iter) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try container(TypeCode.variant, signature: inner.signature, in: &iter) { sub in
                try append(inner, to: &sub)
            }
        case .unsupported(let signature):
            throw BusError.invalidArgument(context: "appending value", reason: "cannot send a value of unsupported type \(signature)")
        }
        if ok == 0 { throw BusError.outOfMemory(context: "appending \(value.signature) value") }
    }

    private static func appendString(_ s: String, type: Int32, to iter: inout DBusMessageIter) -> dbus_bool_t {
        s.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, type, &pointer)
        }
    }

    private static func container(_ type: Int32, signature: String?, in iter: inout DBusMessageIter,
                                  _ body: (inout DBusMessageIter) throws -> Void) throws {
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iter, type, signature, &sub) != 0 else {
            throw BusError.outOfMemory(context: "opening container \(signature ?? "")")
        }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else {
            throw BusError.outOfMemory(context: "closing container \(signature ?? "")")
        }
    }

    func arguments() -> [BusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iter) != 0 else { return [] }
        return Self.readAll(&iter)
    }

    private static func readAll(_ iter: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            values.append(read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func currentSignature(_ iter: inout DBusMessageIter) -> String {
        guard let cString = dbus_message_iter_get_signature(&iter) else { return "?" }
        defer { dbus_free(cString) }
        return String(cString: cString)
    }

    private static func read(_ iter: inout DBusMessageIter) -> BusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        var basic = DBusBasicValue()
        switch type {
        case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
            dbus_message_iter_get_basic(&iter, &basic)
            let s = basic.str.map { String(cString: $0) } ?? ""
            return type == TypeCode.string ? .string(s) : type == TypeCode.objectPath ? .objectPath(s) : .signature(s)
        case TypeCode.boolean:
            dbus_message_iter_get_basic(&iter, &basic)
            return .bool(basic.bool_val != 0)
        case TypeCode.byte:
            dbus_message_iter_get_basic(&iter, &basic)
            return .byte(basic.byt)
        case TypeCode.int32:
            dbus_message_iter_get_basic(&iter, &basic)
            return .int32(basic.i32)
        case TypeCode.uint32:
            dbus_message_iter_get_basic(&iter, &basic)
            return .uint32(basic.u32)
        case TypeCode.int64:
            dbus_message_iter_get_basic(&iter, &basic)
            return .int64(Int64(basic.i64))
        case TypeCode.uint64:
            dbus_message_iter_get_basic(&iter, &basic)
            return .uint64(UInt64(basic.u64))
        case TypeCode.double:
            dbus_message_iter_get_basic(&iter, &basic)
            return .double(basic.dbl)
        case TypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(read(&sub))
        case TypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        case TypeCode.array:
            let signature = currentSignature(&iter)
            let elementSignature = String(signature.dropFirst())
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if elementSignature.hasPrefix("{") {
                return readDict(&sub, signature: signature)
            }
            return .array(elementSignature: elementSignature, readAll(&sub))
        default:
            return .unsupported(signature: currentSignature(&iter))
        }
    }

    /// Reads `a{s...}` into a dictionary; other key types are reported as unsupported.
    private static func readDict(_ sub: inout DBusMessageIter, signature: String) -> BusValue {
        guard signature.hasPrefix("a{s"), signature.hasSuffix("}") else { return .unsupported(signature: signature) }
        let valueSignature = String(signature.dropFirst(3).dropLast())
        var entries: [String: BusValue] = [:]
        while dbus_message_iter_get_arg_type(&sub) == TypeCode.dictEntry {
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&sub, &entry)
            let key = read(&entry).stringValue ?? ""
            dbus_message_iter_next(&entry)
            entries[key] = read(&entry)
            dbus_message_iter_next(&sub)
        }
        return .dict(valueSignature: valueSignature, entries)
    }
}

/// libdbus takes C strings: a NUL inside untrusted text would cut it short, so drop it.
private func withoutNUL(_ s: String) -> String {
    s.utf8.contains(0) ? String(String.UnicodeScalarView(s.unicodeScalars.filter { $0 != "\0" })) : s
}

// MARK: - Connections

/// A private libdbus connection (never shared with other libdbus users in the process).
struct RawConnection {
    let pointer: OpaquePointer

    /// Connects to `address` and says Hello, or to the session bus when `address` is nil.
    static func open(address: String?) throws -> RawConnection {
        _ = threadsInitialised
        let pointer: OpaquePointer? = try checkingError("connecting to \(address ?? "the session bus")") { error in
            if let address {
                guard let connection = dbus_connection_open_private(address, error) else { return nil }
                if dbus_bus_register(connection, error) == 0 {
                    dbus_connection_close(connection)
                    dbus_connection_unref(connection)
                    return nil
                }
                return connection
            }
            return dbus_bus_get_private(DBUS_BUS_SESSION, error)
        }
        guard let pointer else { throw BusError.outOfMemory(context: "connecting to \(address ?? "the session bus")") }
        // libdbus would otherwise _exit() the process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(pointer, 0)
        return RawConnection(pointer: pointer)
    }

    /// libdbus locks its connections only when told to; tests use connections from several threads.
    private static let threadsInitialised: Bool = dbus_threads_init_default() != 0

    func closeAndRelease() {
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }

    var uniqueName: String? { dbus_bus_get_unique_name(pointer).map { String(cString: $0) } }

    var fileDescriptor: Int32 {
        var fd: Int32 = -1
        return dbus_connection_get_unix_fd(pointer, &fd) != 0 ? fd : -1
    }

    var isConnected: Bool { dbus_connection_get_is_connected(pointer) != 0 }

    var hasOutgoingMessages: Bool { dbus_connection_has_messages_to_send(pointer) != 0 }

    /// Reads and writes what the socket allows now, without waiting. False once disconnected.
    func readWriteNonBlocking() -> Bool { dbus_connection_read_write(pointer, 0) != 0 }

    /// Dispatches one queued message to the filters; true while more remain.
    func dispatchOne() -> Bool { dbus_connection_dispatch(pointer) == DBUS_DISPATCH_DATA_REMAINS }

    var hasQueuedIncoming: Bool { dbus_connection_get_dispatch_status(pointer) == DBUS_DISPATCH_DATA_REMAINS }

    func flush() { dbus_connection_flush(pointer) }

    /// Queues `message` (libdbus writes what the socket takes at once); returns its serial.
    @discardableResult
    func send(_ message: MessageRef) throws -> UInt32 {
        guard isConnected else { throw BusError.disconnected }
        var serial: UInt32 = 0
        if dbus_connection_send(pointer, message.pointer, &serial) == 0 {
            throw BusError.outOfMemory(context: "queueing \(message.member ?? "message")")
        }
        return serial
    }

    /// Sends a call and waits for its reply. An error reply is thrown as `BusMethodError`.
    func call(_ message: MessageRef, timeoutMilliseconds: Int32) throws -> MessageRef {
        guard isConnected else { throw BusError.disconnected }
        var error = DBusError()
        dbus_error_init(&error)
        let reply = dbus_connection_send_with_reply_and_block(pointer, message.pointer, timeoutMilliseconds, &error)
        if dbus_error_is_set(&error) != 0 {
            let name = error.name.map { String(cString: $0) } ?? BusMethodError.failed
            let text = error.message.map { String(cString: $0) } ?? ""
            dbus_error_free(&error)
            if let reply { dbus_message_unref(reply) }
            if name == "org.freedesktop.DBus.Error.Disconnected" || !isConnected { throw BusError.disconnected }
            throw BusMethodError(name: name, message: text)
        }
        guard let reply else { throw BusError.outOfMemory(context: "waiting for reply to \(message.member ?? "call")") }
        return MessageRef(owning: reply)
    }

    /// Requests `name` without queueing: true when this connection now owns it.
    func requestName(_ name: String) throws -> Bool {
        try NameCheck.busName(name, "requesting name")
        let result = try checkingError("requesting name \(name)") { error in
            dbus_bus_request_name(pointer, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), error)
        }
        return result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER
    }

    func releaseName(_ name: String) throws {
        try NameCheck.busName(name, "releasing name")
        _ = try checkingError("releasing name \(name)") { error in
            dbus_bus_release_name(pointer, name, error)
        }
    }

    func addMatch(_ rule: String) throws {
        try checkingError("adding match rule \(rule)") { error in
            dbus_bus_add_match(pointer, rule, error)
        }
    }

    func removeMatch(_ rule: String) throws {
        try checkingError("removing match rule \(rule)") { error in
            dbus_bus_remove_match(pointer, rule, error)
        }
    }

    /// Installs `handler` as the connection's filter; it returns true when it handled the message.
    /// libdbus keeps the closure alive until the connection is finalised.
    func installFilter(_ handler: @escaping (MessageRef) -> Bool) throws {
        let box = Unmanaged.passRetained(FilterBox(handler)).toOpaque()
        let added = dbus_connection_add_filter(pointer, { _, message, userData in
            guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let box = Unmanaged<FilterBox>.fromOpaque(userData).takeUnretainedValue()
            return box.handler(MessageRef(borrowing: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, box, { userData in
            if let userData { Unmanaged<FilterBox>.fromOpaque(userData).release() }
        })
        if added == 0 {
            Unmanaged<FilterBox>.fromOpaque(box).release()
            throw BusError.outOfMemory(context: "installing message filter")
        }
    }
}

private final class FilterBox {
    let handler: (MessageRef) -> Bool
    init(_ handler: @escaping (MessageRef) -> Bool) { self.handler = handler }
}
