import FoundationEssentials
import ScreenTimeCore

/// The dates feeds carry: RFC 822 in RSS (`Mon, 30 Nov 2026 06:00:00 GMT`), RFC 3339 in Atom
/// (`2026-11-30T06:00:00+01:00`). nil for anything else.
enum FeedDate {
    static func rfc822(_ text: String) -> Date? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        if let first = words.first, first.hasSuffix(",") || Int(first) == nil { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]), let month = months.firstIndex(of: words[1].prefix(3).lowercased()),
              var year = Int(words[2]) else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let clock = words[3].split(separator: ":").map { Int($0) }
        guard clock.count >= 2, clock.allSatisfy({ $0 != nil }) else { return nil }
        let offset = words.count > 4 ? zoneOffset(words[4]) : 0
        guard let offset else { return nil }
        return instant(year: year, month: month + 1, day: day, hour: clock[0]!, minute: clock[1]!,
                       second: clock.count > 2 ? clock[2]! : 0, offset: offset)
    }

    static func rfc3339(_ text: String) -> Date? {
        let text = text.filter { !$0.isWhitespace }.uppercased()
        let characters = Array(text)
        guard characters.count >= 19 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? { Int(String(characters[from..<from + length])) }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var rest = characters[19...].drop { $0 == "." || $0.isNumber }
        var offset = 0
        if rest.first == "Z" {
            rest = rest.dropFirst()
        } else if let sign = rest.first, sign == "+" || sign == "-" {
            let parts = String(rest.dropFirst()).split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { return nil }
            offset = (sign == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60)
        } else if !rest.isEmpty {
            return nil
        }
        return instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds east of UTC: `+0100`, `GMT`, `UT`, `Z`, the US zones RFC 822 names.
    private static func zoneOffset(_ word: String) -> Int? {
        if let sign = word.first, sign == "+" || sign == "-", word.count == 5, let digits = Int(word.dropFirst()) {
            return (sign == "-" ? -1 : 1) * (digits / 100 * 3600 + digits % 100 * 60)
        }
        let hours: [String: Int] = ["GMT": 0, "UT": 0, "UTC": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
                                    "MST": -7, "MDT": -6, "PST": -8, "PDT": -7]
        return hours[word.uppercased()].map { $0 * 3600 }
    }

    private static func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }
}
