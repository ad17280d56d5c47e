import FoundationEssentials

/// A D-Bus value, as sent or received in a message body. Covers what the notification spec and the
/// agent's interface use; other types arriving in a message are reported as `unsupported`.
public enum BusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case signature(String)
    case bool(Bool)
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    /// An array whose elements all have `elementSignature` (needed to send an empty array).
    indirect case array(elementSignature: String, [BusValue])
    /// A dictionary with string keys: `a{s<valueSignature>}` such as `a{sv}` or `a{ss}`.
    indirect case dict(valueSignature: String, [String: BusValue])
    indirect case structure([BusValue])
    indirect case variant(BusValue)
    /// A received value of a type this module does not decode; carries its signature.
    case unsupported(signature: String)

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .bool: return "b"
        case .byte: return "y"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .array(let element, _): return "a" + element
        case .dict(let value, _): return "a{s" + value + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .variant: return "v"
        case .unsupported(let signature): return signature
        }
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> BusValue {
        .array(elementSignature: "s", values.map(BusValue.string))
    }

    /// An `a{sv}` dictionary.
    public static func vardict(_ entries: [String: BusValue]) -> BusValue {
        .dict(valueSignature: "v", entries.mapValues(BusValue.variant))
    }
}

// Typed views for decoding replies; nil when the value has another type. A variant is looked through.
extension BusValue {
    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .variant(let inner): return inner.stringValue
        default: return nil
        }
    }

    /// The elements of an array of strings (`as`).
    public var stringsValue: [String]? {
        guard case .array("s", let elements) = self else { return nil }
        return elements.compactMap(\.stringValue)
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .variant(let inner): return inner.boolValue
        default: return nil
        }
    }

    public var byteValue: UInt8? {
        switch self {
        case .byte(let b): return b
        case .variant(let inner): return inner.byteValue
        default: return nil
        }
    }

    public var int32Value: Int32? {
        switch self {
        case .int32(let v): return v
        case .variant(let inner): return inner.int32Value
        default: return nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let v): return v
        case .variant(let inner): return inner.uint32Value
        default: return nil
        }
    }

    public var int64Value: Int64? {
        switch self {
        case .int64(let v): return v
        case .variant(let inner): return inner.int64Value
        default: return nil
        }
    }

    public var uint64Value: UInt64? {
        switch self {
        case .uint64(let v): return v
        case .variant(let inner): return inner.uint64Value
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .double(let v): return v
        case .variant(let inner): return inner.doubleValue
        default: return nil
        }
    }

    public var arrayValue: [BusValue]? {
        switch self {
        case .array(_, let elements): return elements
        case .variant(let inner): return inner.arrayValue
        default: return nil
        }
    }

    /// The strings of an `as` array; nil when it is not one.
    public var stringArrayValue: [String]? {
        guard let elements = arrayValue else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let s = element.stringValue else { return nil }
            strings.append(s)
        }
        return strings
    }

    public var dictValue: [String: BusValue]? {
        switch self {
        case .dict(_, let entries): return entries
        case .variant(let inner): return inner.dictValue
        default: return nil
        }
    }
}

extension Array where Element == BusValue {
    /// The signature of a whole message body.
    public var signature: String { map(\.signature).joined() }
}
