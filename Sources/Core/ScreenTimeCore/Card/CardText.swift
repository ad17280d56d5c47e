import FoundationEssentials

/// A card as plain text for a terminal (`screentime rundown`, `screentime-card --print`): the title
/// underlined, today's time and the week as bars of block characters, the message wrapped, each
/// section with its items, and the buttons in a row. No colour codes; the text is printed as is
/// (untrusted text such as a feed's titles is never interpreted, and a terminal escape in it is
/// shown as a visible `^[`).
public enum CardText {
    public static let width = 72
    /// The longest week bar, in character cells.
    public static let barWidth = 24

    public static func render(_ document: CardDocument) -> String {
        var lines = [printable(document.title), String(repeating: "=", count: min(width, max(1, printable(document.title).count)))]
        if let statistics = document.statistics {
            lines.append("")
            lines += self.statistics(statistics)
        }
        lines.append("")
        lines += wrap(printable(document.message), width: width)
        for section in document.sections {
            lines.append("")
            lines.append(printable(section.title))
            if section.items.isEmpty, let note = section.note {
                lines += wrap(printable(note), width: width - 2).map { "  " + $0 }
                continue
            }
            for item in section.items {
                lines += wrap(printable(item), width: width - 4).enumerated().map { ($0.offset == 0 ? "  - " : "    ") + $0.element }
            }
            if let note = section.note { lines += wrap(printable(note), width: width - 2).map { "  " + $0 } }
        }
        if !document.buttons.isEmpty {
            lines.append("")
            lines += buttonRows(document.buttons.map { "[ \(printable($0.label)) ]" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Today  1 h 5 min`, then a line a day: its name, a bar scaled to the week's longest day, its
    /// time (no bars for a week without any).
    static func statistics(_ statistics: CardStatistics) -> [String] {
        var lines = ["Today  \(DurationText.spoken(statistics.today))"]
        let longest = statistics.week.map(\.seconds).max() ?? 0
        guard longest > 0 else { return lines }
        for day in statistics.week {
            let bar = self.bar(day.seconds / longest * Double(barWidth))
            let padded = bar + String(repeating: " ", count: barWidth - bar.count)
            lines.append("  \(printable(day.label).padding(to: 3))  \(padded)  \(DurationText.spoken(day.seconds))")
        }
        return lines
    }

    /// `cells` character cells of bar, to an eighth of a cell; never empty for a day with any use.
    static func bar(_ cells: Double) -> String {
        let eighths = max(0, Int((cells * 8).rounded()))
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        let text = String(repeating: "█", count: eighths / 8) + partial
        return text.isEmpty && cells > 0 ? "▏" : text
    }

    /// Words to lines of at most `width` characters (a longer word stands alone); line breaks kept.
    static func wrap(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            return lines + [line]
        }
    }

    /// Buttons two spaces apart, as many to a row as fit in `width`.
    static func buttonRows(_ buttons: [String]) -> [String] {
        var rows: [String] = []
        for button in buttons {
            if let last = rows.last, last.count + 2 + button.count <= width { rows[rows.count - 1] = last + "  " + button }
            else { rows.append(button) }
        }
        return rows
    }

    /// Control characters (a terminal's escapes among them) shown as `^X`, never sent to the terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" { result += "\n" }
            else if scalar.value < 0x20 || scalar.value == 0x7F { result += "^" + String(UnicodeScalar(UInt8(scalar.value ^ 0x40))) }
            else if (0x80..<0xA0).contains(scalar.value) { result += "?" }
            else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}

extension String {
    /// Padded with spaces to `width` characters.
    fileprivate func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
