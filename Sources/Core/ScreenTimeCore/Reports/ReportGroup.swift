import FoundationEssentials

/// The one group an app counts under in a report, so the groups add up to the total: an app in
/// several groups goes to the first of `precedence` (leisure first, as the limits see it); an app
/// of no group is `other`.
public enum ReportGroup {
    public static let precedence: [AppGroup] = [.content, .socialApps, .communication, .productivity, .browsers, .clock, .system]
    public static let other = "other"

    public static func name(of app: AppInfo, _ settings: Settings) -> String {
        let groups = settings.groups(of: app)
        return precedence.first(where: groups.contains)?.rawValue ?? other
    }
}
