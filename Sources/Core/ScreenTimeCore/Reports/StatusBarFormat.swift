import FoundationEssentials

/// The line in the forms bars read.
public enum StatusBarFormat {
    /// One JSON object on one line, as waybar's custom module reads it with `"return-type": "json"`:
    /// `text` and `tooltip` (Pango markup there, so escaped), `class` (an array), `percentage` (an
    /// unsigned integer: waybar ignores any other number) and `alt` (the icon name, for `format-icons`).
    public static func waybar(_ line: StatusBarLine) -> String {
        struct Document: Encodable {
            var text: String, tooltip: String, `class`: [String], percentage: Int, alt: String
        }
        let document = Document(text: MarkupText.escape(line.text), tooltip: MarkupText.escape(line.tooltip),
                                class: line.classes, percentage: line.percentage, alt: line.iconName)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The i3blocks lines: full text, short text, colour (polybar shows the first). A persistent
    /// block (i3blocks `interval=persist`, polybar `tail = true`) reads one line per update, so a
    /// follower gives `following` and gets the full text alone.
    public static func i3blocks(_ line: StatusBarLine, following: Bool = false) -> String {
        following ? oneLine(line.text) : [line.text, line.shortText, line.colour].map(oneLine).joined(separator: "\n")
    }

    /// Text for a line-based protocol: a newline inside (an app's name, perhaps a window's class)
    /// would start the next field, and polybar runs `%{…}` in a script's output as formatting
    /// and click actions, so the sequence is broken.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).replacing("%{", with: "% {")
    }
}
