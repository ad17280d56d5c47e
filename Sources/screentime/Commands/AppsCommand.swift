import Agent
import FoundationEssentials
import ScreenTimeCore

struct AppsCommand: Subcommand {
    static let name = "apps"
    static let abstract = "Known apps: id, name, today's time and limit"
    static let usage = ["apps"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let settings = try context.settings()
        let zone = context.zone
        let today = CivilDate(parsing: settings.dayBoundary.label(of: Date(), in: zone))!
        let week = ReportRange(from: today.adding(days: -6), to: today, boundary: settings.dayBoundary, zone: zone)
        let report = try ReportCommand.report(title: "", range: week, context: context, settings: settings)
        let known = Set(report.apps.map(\.id)).union(settings.limits.keys).union(settings.important).union(settings.essential)
        let rows = known.sorted().map { app -> [String] in
            let usage = report.apps.first { $0.id == app }
            let limit = settings.isEssential(app) ? "essential" : settings.important.contains(app) ? "important"
                : DurationText.format(settings.limit(for: app) ?? 0)
            return [app.rawValue, usage?.name ?? app.rawValue, DurationText.spoken(usage?.days[today.description] ?? 0), limit]
        }
        context.print(Table.render(header: ["APP", "NAME", "TODAY", "LIMIT"], rows: rows))
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
