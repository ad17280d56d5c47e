import FoundationEssentials

/// The markup subset of the Desktop Notifications spec (`body-markup`): a server that takes markup
/// parses the body as XML-like text, so plain text must have its special characters escaped.
public enum NotificationMarkup {
    /// `text` with `&`, `<`, `>`, `'` and `"` replaced by entities, so it shows literally.
    /// Works on UTF-8 bytes: the five are ASCII and never inside a multi-byte sequence.
    public static func escape(_ text: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += Array("&amp;".utf8)
            case UInt8(ascii: "<"): escaped += Array("&lt;".utf8)
            case UInt8(ascii: ">"): escaped += Array("&gt;".utf8)
            case UInt8(ascii: "'"): escaped += Array("&apos;".utf8)
            case UInt8(ascii: "\""): escaped += Array("&quot;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
