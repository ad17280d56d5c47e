/// Text put into markup (HTML, SVG, the notification spec's XML-like body) so that it shows
/// literally: `&`, `<`, `>`, `'` and `"` replaced by entities, in text and in quoted attributes.
public enum MarkupText {
    /// Works on UTF-8 bytes, not `Character`s: a grapheme cluster such as `<` followed by a
    /// combining mark, or U+0600 followed by `<`, is not equal to `<`, yet the markup parser sees
    /// the bare `<`. The five are ASCII and never part of a multi-byte sequence.
    public static func escape(_ text: some StringProtocol) -> String {
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
