import FoundationEssentials

/// Durations as users type and read them: `1h`, `45m`, `1h30m`, `90s`.
public enum DurationText {
    /// The longest duration read from outside (config, command line): a year. Anything longer is a
    /// typo, and bounding it keeps every sum of durations and instants far from overflow.
    public static let longest: TimeInterval = 366 * 86_400

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        /// Whether the text is a duration, only longer than `longest`.
        public var tooLong = false
        public var description: String {
            tooLong ? "`\(text)` is longer than the longest duration allowed (\(DurationText.format(DurationText.longest)))"
                : "`\(text)` is not a duration (use 1h, 45m, 1h30m, 90s)"
        }
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
            guard !digits.isEmpty else { throw ParseError(text: text) }
            // Digits beyond what `Int` holds are too long as well; checking each part keeps the sum exact.
            guard let value = Int(digits), TimeInterval(value) <= longest / unit else { throw ParseError(text: text, tooLong: true) }
            total += TimeInterval(value) * unit
            guard total <= longest else { throw ParseError(text: text, tooLong: true) }
            digits = ""
            sawUnit = true
        }
        guard sawUnit, digits.isEmpty else { throw ParseError(text: text) }
        return total
    }

    /// The compact form the parser reads back: `1h30m`, `45m`, `90s` → `1m30s`. Any number formats
    /// (NaN and the infinities saturate), so a bad value shown is never a crash.
    public static func format(_ seconds: TimeInterval) -> String {
        let total = seconds.saturatedSeconds()
        if total == 0 { return "0s" }
        let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60)
        return (h > 0 ? "\(h)h" : "") + (m > 0 ? "\(m)m" : "") + (s > 0 ? "\(s)s" : "")
    }

    /// The form for sentences: `1 h 5 min`, `45 min`, `10 s`; minutes rounded down above a minute.
    public static func spoken(_ seconds: TimeInterval) -> String {
        let total = max(0, seconds.saturatedSeconds())
        if total < 60 { return "\(total) s" }
        let (h, m) = (total / 3600, total % 3600 / 60)
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }
}
