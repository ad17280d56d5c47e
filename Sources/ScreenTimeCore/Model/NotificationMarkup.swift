import FoundationEssentials

/// The markup subset of the Desktop Notifications spec (`body-markup`): a server that takes markup
/// parses the body as XML-like text, so plain text must have its special characters escaped.
public enum NotificationMarkup {
    /// `text` with `&`, `<`, `>`, `'` and `"` replaced by entities, so it shows literally.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "'": escaped += "&apos;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
