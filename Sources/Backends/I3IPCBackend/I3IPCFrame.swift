/// One message of the i3 IPC (sway speaks it too): "i3-ipc", the payload's length and the
/// message type (both 32-bit, the host's byte order), then the payload (JSON).
public struct I3IPCFrame: Equatable, Sendable {
    public var type: UInt32
    public var payload: [UInt8]

    public init(type: UInt32, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    public init(_ type: I3IPCMessageType, _ payload: String = "") {
        self.init(type: type.rawValue, payload: Array(payload.utf8))
    }

    /// Events carry the high bit; replies the request's type.
    public var isEvent: Bool { type & 0x8000_0000 != 0 }

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = magic.count + 8

    public var encoded: [UInt8] {
        var bytes = Self.magic
        withUnsafeBytes(of: UInt32(payload.count)) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        return bytes + payload
    }
}

/// The request types the provider sends, and the event it subscribes to.
public enum I3IPCMessageType: UInt32, Sendable {
    case runCommand = 0
    case subscribe = 2
    case getTree = 4
    case windowEvent = 0x8000_0003
}

/// Cuts a byte stream into frames as it arrives in pieces.
public struct I3IPCFrameParser {
    private var buffer: [UInt8] = []
    private var start = 0
    /// A frame longer than this is a broken stream, not a tree (sway's trees are kilobytes).
    static let maxPayload = 64 << 20

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badMagic
        case tooLong(Int)
        public var description: String {
            switch self {
            case .badMagic: return "the i3 IPC stream lost its framing (no \"i3-ipc\" where a message should start)"
            case .tooLong(let length): return "an i3 IPC message claims \(length) bytes"
            }
        }
    }

    public init() {}

    public mutating func append(_ bytes: [UInt8]) {
        buffer += bytes
    }

    /// Whether a whole frame waits to be taken.
    public var hasFrame: Bool { (try? peekLength()).flatMap { $0 } != nil }

    /// The next whole frame, nil while it has not all arrived.
    public mutating func next() throws -> I3IPCFrame? {
        guard let length = try peekLength() else { return nil }
        let header = start
        let body = header + I3IPCFrame.headerSize
        let type = readUInt32(at: header + I3IPCFrame.magic.count + 4)
        let frame = I3IPCFrame(type: type, payload: Array(buffer[body..<body + length]))
        start = body + length
        if start == buffer.count || start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        return frame
    }

    private func peekLength() throws -> Int? {
        guard buffer.count - start >= I3IPCFrame.headerSize else { return nil }
        guard buffer[start..<start + I3IPCFrame.magic.count].elementsEqual(I3IPCFrame.magic) else { throw Failure.badMagic }
        let length = Int(readUInt32(at: start + I3IPCFrame.magic.count))
        guard length <= Self.maxPayload else { throw Failure.tooLong(length) }
        return buffer.count - start - I3IPCFrame.headerSize >= length ? length : nil
    }

    private func readUInt32(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: buffer[offset..<offset + 4]) }
        return value
    }
}
