/// Untrusted text (a feed's titles, a calendar's summaries) made one plain line: runs of whitespace
/// and line breaks become one space, control characters (a terminal's escape sequences) and the
/// invisible bidirectional overrides are dropped, and the line is cut to a length.
public enum PlainLine {
    public static func of(_ text: String, limit: Int = 200) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .lineSeparator ? " " : Character(scalar)
        }.filter { character in
            !character.unicodeScalars.contains { scalar in
                scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
            }
        }
        let line = String(kept).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }
}
