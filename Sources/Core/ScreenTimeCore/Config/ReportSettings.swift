import FoundationEssentials

/// The `[report]` section: the weekly summary notification, and the day weeks start on.
///
///     [report]
///     weekly-summary = on   # off: no notification at the start of a week
///     week-start = monday
public struct ReportSettings: Equatable, Sendable {
    public var weeklySummary = true
    public var weekStart = Weekday.monday

    public init() {}

    public static let section = "report"
    public static let weeklySummaryKey = "weekly-summary"
    public static let weekStartKey = "week-start"
}

extension ReportSettings {
    /// Reads `[report]`; every problem names its line.
    public init(_ file: KeyFile, path: String) throws {
        self.init()
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(path: path, line: line, message: message) }
        for (key, value, line) in file.entries(in: Self.section) {
            switch key {
            case Self.weeklySummaryKey:
                guard let on = KeyFileSwitch.parse(value) else { throw fail(line, "`\(value)` is neither on nor off") }
                weeklySummary = on
            case Self.weekStartKey:
                guard let day = Weekday.allCases.first(where: { [$0.name.lowercased(), $0.shortName].contains(value.lowercased()) }) else {
                    throw fail(line, "`\(value)` is not a day of the week (monday … sunday)")
                }
                weekStart = day
            default:
                throw fail(line, "unknown key `\(key)` in [report] (known: \(Self.weeklySummaryKey), \(Self.weekStartKey))")
            }
        }
    }
}
