import FoundationEssentials

/// Durations as users type and read them: `1h`, `45m`, `1h30m`, `90s`.
public enum DurationText {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        public var description: String { "`\(text)` is not a duration (use 1h, 45m, 1h30m, 90s)" }
    }

    public static func parse(_ text: String) throws -> TimeInterval {
        let trimmed = text.trimmingWhitespace().lowercased()
        var total: TimeInterval = 0
        var digits = ""
        var sawUnit = false
        for character in trimmed {
            if character.isASCII && character.isNumber {
                digits.append(character)
                continue
            }
            let unit: TimeInterval
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            case " ": continue
            default: throw ParseError(text: text)
            }
            guard let value = Int(digits) else { throw ParseError(text: text) }
            total += TimeInterval(value) * unit
            digits = ""
            sawUnit = true
        }
        guard sawUnit, digits.isEmpty else { throw ParseError(text: text) }
        return total
    }

    /// The compact form the parser reads back: `1h30m`, `45m`, `90s` → `1m30s`.
    public static func format(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total == 0 { return "0s" }
        let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60)
        return (h > 0 ? "\(h)h" : "") + (m > 0 ? "\(m)m" : "") + (s > 0 ? "\(s)s" : "")
    }

    /// The form for sentences: `1 h 5 min`, `45 min`, `10 s`; minutes rounded down above a minute.
    public static func spoken(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded()))
        if total < 60 { return "\(total) s" }
        let (h, m) = (total / 3600, total % 3600 / 60)
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }
}
