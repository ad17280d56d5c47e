/// What the CLI makes of an APP argument: the id as typed when it is known or unknown to all,
/// else the one known id it abbreviates — the same id in another case, or the last part of a
/// dotted id (`calculator` for `org.gnome.Calculator`). Only the CLI abbreviates: the agent never
/// guesses an app from part of an id.
public enum AppAbbreviation {
    public enum Outcome: Equatable, Sendable {
        case id(AppID)
        /// Several known ids fit: the user must choose.
        case ambiguous([AppID])
    }

    public static func expand(_ typed: String, known: Set<AppID>) -> Outcome {
        if known.contains(AppID(typed)) { return .id(AppID(typed)) }
        let lowered = typed.lowercased()
        let matches = known.filter { id in
            let parts = id.rawValue.split(separator: ".")
            return id.rawValue.lowercased() == lowered || (parts.count > 1 && parts.last?.lowercased() == lowered)
        }
        if matches.count > 1 { return .ambiguous(matches.sorted()) }
        return .id(matches.first ?? AppID(typed))
    }
}
