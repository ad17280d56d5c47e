/// Why a name cannot be kept in the config file, in words that follow the name.
public struct StoredNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `` `firefox ` cannot be stored: it ends with a space ``.
    public var message: String
    public var description: String { message }
}

/// The one rule for the names the config file keeps (app ids, group members, rule names), used
/// by the CLI, the D-Bus interface and the config reader alike. A name is written as a `[limits]`
/// key, as an item of an `a;b;c` list and as the app of a rule's `APP:TITLE`, and must read back
/// as itself from each; anything else is refused rather than stored as something else.
public enum StoredName {
    /// Bytes of UTF-8: a desktop entry's file name is at most 255 bytes too.
    public static let maximumLength = 255
    /// Keys of `[limits]` that are not apps.
    public static let reserved = [ConfigKey.defaultLimit, ConfigKey.limitScope]

    /// Throws when `text` cannot be stored faithfully, naming it and why.
    public static func check(_ text: String) throws(StoredNameError) {
        func refuse(_ reason: String) -> StoredNameError { StoredNameError(message: "\(shown(text)) cannot be stored: \(reason)") }
        // The length first: a megabyte of name costs nothing more to refuse.
        guard !text.isEmpty else { throw refuse("it is empty") }
        guard text.utf8.count <= maximumLength else { throw refuse("it is \(text.utf8.count) bytes long (at most \(maximumLength))") }
        if let control = text.unicodeScalars.first(where: isControl) {
            throw refuse("it contains the control character U+\(hex(control))")
        }
        if let first = text.unicodeScalars.first, first.properties.isWhitespace { throw refuse("it begins with a space") }
        if let last = text.unicodeScalars.last, last.properties.isWhitespace { throw refuse("it ends with a space") }
        for (separator, role) in separators where text.unicodeScalars.contains(separator) {
            throw refuse("it contains `\(separator)`, which \(role)")
        }
        if let first = text.unicodeScalars.first, let role = leaders[first] { throw refuse("it begins with `\(first)`, which \(role)") }
        if reserved.contains(text) { throw refuse("`\(text)` is a key of [limits], not an app") }
        // What the rules above miss (a leading combining mark joins the `;` before it into one character).
        guard readsBack(text) else { throw refuse("it would not read back as itself from the config file") }
    }

    /// `text` in backticks for a message: control characters escaped, a long one cut.
    public static func shown(_ text: String) -> String {
        var shown = ""
        let kept = text.unicodeScalars.prefix(64)
        for scalar in kept {
            shown += isControl(scalar) ? "\\u{\(hex(scalar))}" : String(scalar)
        }
        return "`" + shown + (kept.endIndex < text.unicodeScalars.endIndex ? "…" : "") + "`"
    }

    private static let separators: [(Unicode.Scalar, String)] = [
        ("=", "separates a key from its value"), (";", "separates the items of a list"),
        (":", "separates a rule's app from its title"),
    ]
    private static let leaders: [Unicode.Scalar: String] = [
        "#": "starts a comment", "[": "starts a section header", "+": "adds an app to a group", "-": "takes an app out of a group",
    ]

    /// Controls, formatting characters (bidirectional overrides, zero-width joiners) and line separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: true
        default: false
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func readsBack(_ text: String) -> Bool {
        guard let file = try? KeyFile(parsing: "[limits]\n\(text) = 1h\n[exemptions]\nimportant = a;\(text);b\n") else { return false }
        return file.entries(in: ConfigKey.limits).map(\.key) == [text]
            && KeyFileList.split(file.value(ConfigKey.important, in: ConfigKey.exemptions) ?? "") == ["a", text, "b"]
            && TitleRule.Match(text: "\(text):title")?.app.rawValue == text
    }
}

extension AppID {
    /// An app id typed or sent from outside, refused unless the config file can keep it as it is.
    public init(checking text: String) throws(StoredNameError) {
        try StoredName.check(text)
        self.init(text)
    }
}
