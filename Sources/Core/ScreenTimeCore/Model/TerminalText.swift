/// Text from outside (an app id a window chose, a title, a desktop entry's or the config's names)
/// as it may reach a terminal: every control character but newline and tab (C0, DEL and C1)
/// becomes U+FFFD, so none of it can set the window title, move the cursor, recolour or hide text,
/// or start a hyperlink. One rule for every text the command-line tool and the agent print; JSON
/// and CSV keep their strings faithfully (JSON escapes controls itself).
public enum TerminalText {
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    public static func printable(_ text: some StringProtocol) -> String {
        // Scalars, not `Character`s: "\r\n" or ESC followed by a combining mark is one Character.
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { shown.append(isControl(scalar) ? replacement : scalar) }
        return String(shown)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
    }
}
