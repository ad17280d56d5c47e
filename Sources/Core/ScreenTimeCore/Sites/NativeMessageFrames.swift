/// The browsers' native messaging framing: each message is a 4-byte length in the machine's own
/// byte order, then that many bytes of UTF-8 JSON. Fed whatever the pipe gives (a message may
/// come in pieces, several in one read); an oversized or empty frame is an error and its bytes are
/// skipped, so the stream stays in step and the next message is read. Never traps.
public struct NativeMessageFrames: Sendable {
    /// The largest message taken from the browser: Chrome sends a host at most 1 MB in practice and
    /// lets it answer with at most 1 MB; a larger one is no message screentime sends or expects.
    public static let largestMessage = 1024 * 1024

    public enum Item: Equatable, Sendable {
        case message([UInt8])
        /// A frame that was refused, and why; its bytes are skipped.
        case refused(String)
    }

    private var buffer: [UInt8] = []
    /// Bytes of a refused frame still to come and be dropped.
    private var skipping = 0

    public init() {}

    /// Takes bytes read from the pipe; returns the messages (and refusals) they complete.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Item] {
        var items: [Item] = []
        var input = bytes[...]
        if skipping > 0 {
            let dropped = min(skipping, input.count)
            skipping -= dropped
            input = input.dropFirst(dropped)
        }
        buffer.append(contentsOf: input)
        var start = 0
        while buffer.count - start >= 4 {
            let length = Int(Self.length(buffer[start..<start + 4]))
            if length == 0 {
                items.append(.refused("an empty message"))
                start += 4
                continue
            }
            if length > Self.largestMessage {
                items.append(.refused("a message of \(length) bytes, over the \(Self.largestMessage)-byte limit"))
                let available = buffer.count - start - 4
                let dropped = min(available, length)
                start += 4 + dropped
                skipping = length - dropped
                continue
            }
            guard buffer.count - start - 4 >= length else { break }
            items.append(.message(Array(buffer[(start + 4)..<(start + 4 + length)])))
            start += 4 + length
        }
        if start > 0 { buffer.removeFirst(start) }
        return items
    }

    /// Bytes of a message begun but not complete: the browser closing the pipe now cuts it off.
    public var pendingBytes: Int { buffer.count + skipping }

    /// One message framed for the browser; nil when it is too long to send.
    public static func frame(_ message: [UInt8]) -> [UInt8]? {
        guard message.count <= largestMessage else { return nil }
        return withUnsafeBytes(of: UInt32(message.count)) { Array($0) } + message
    }

    private static func length(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return value
    }
}
