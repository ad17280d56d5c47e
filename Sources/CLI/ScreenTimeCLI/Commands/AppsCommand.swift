import AgentControl
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

struct AppsCommand: Subcommand {
    static let name = "apps"
    static let abstract = "Known apps: id, name, groups, today's time and limit"
    static let usage = ["apps"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let settings = try context.settings()
        let zone = context.zone
        let today = CivilDate(parsing: settings.dayBoundary.label(of: context.now, in: zone))!
        let week = ReportRange(from: today.adding(days: -6), to: today, boundary: settings.dayBoundary, zone: zone)
        // Today's time on every joined computer, as the limits count it.
        let devices = try ReportDevices(context: context, only: nil, reporting: week, boundary: settings.dayBoundary, zone: zone)
        let report = try ReportCommand.report(title: "", range: week, context: context, settings: settings, devices: devices)
        let entries = context.installedApps()
        let known = Set(report.apps.map(\.id)).union(settings.limits.keys).union(settings.important).union(settings.essential)
        let rows = known.sorted().map { app -> [String] in
            let usage = report.apps.first { $0.id == app }
            var info = entries[app] ?? SiteApp.known(by: app)
            if entries[app] == nil, let name = usage?.name { info.name = name }
            return [app.rawValue, usage?.name ?? info.name, Self.groups(of: info, settings),
                    DurationText.spoken(usage?.days[today.description] ?? 0), Self.limit(of: info, settings)]
        }
        context.print(Table.render(header: ["APP", "NAME", "GROUPS", "TODAY", "LIMIT"], rows: rows))
    }

    static func groups(of app: AppInfo, _ settings: Settings) -> String {
        let groups = settings.groups(of: app).map(\.rawValue).sorted()
        return groups.isEmpty ? "-" : groups.joined(separator: ",")
    }

    /// The app's own (or default) limit and its groups' shared ones: the tighter applies.
    static func limit(of app: AppInfo, _ settings: Settings) -> String {
        if settings.isEssential(app) { return "essential" }
        if settings.important.contains(app.id) { return "important" }
        let own = settings.limit(for: app).map { DurationText.format($0) }
        let shared = settings.groupLimits(for: app).map { "\($0.group.rawValue) \(DurationText.format($0.limit))" }
        let all = (own.map { [$0] } ?? []) + shared
        return all.isEmpty ? "none" : all.joined(separator: ", ")
    }
}

/// Columns padded to their widest cell.
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { $0.offset == row.count - 1 ? $0.element : $0.element.padded(to: widths[$0.offset]) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
