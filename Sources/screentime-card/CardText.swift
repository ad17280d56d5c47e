import ScreenTimeCore

/// A card as plain text (`--print`): what it would show, without a display.
enum CardText {
    static func render(_ document: CardDocument) -> String {
        var lines = [document.title]
        if let statistics = document.statistics {
            lines.append("Today: \(DurationText.spoken(statistics.today))")
            lines.append(statistics.week.map { "\($0.label) \(DurationText.spoken($0.seconds))" }.joined(separator: ", "))
        }
        lines.append(document.message)
        for section in document.sections {
            lines.append("")
            lines.append(section.title)
            lines += section.items.map { "  \($0)" }
            if let note = section.note { lines.append("  (\(note))") }
        }
        lines.append("")
        lines.append(document.buttons.map { "[\($0.label)]" }.joined(separator: " "))
        return lines.joined(separator: "\n")
    }
}
