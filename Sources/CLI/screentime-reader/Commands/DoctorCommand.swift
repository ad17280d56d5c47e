import Agent
import AgentControl
import ScreenTimeCLI
import ScreenTimeCore

struct DoctorCommand: DescribedCommand {
    typealias Description = DoctorDescription

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let findings = DesktopProbe.run(environment: context.environment)
        let calendarTopic = "calendars"
        let width = (findings.map(\.topic) + [calendarTopic]).map(\.count).max() ?? 0
        func line(_ ok: Bool, _ topic: String, _ detail: String) {
            context.print("\(ok ? "ok  " : "warn") \(topic.padded(to: width))  \(detail)")
        }
        for finding in findings { line(finding.ok, finding.topic, finding.detail) }
        // An unreadable config is the config line's finding; the calendars are then none.
        let paths = (try? context.settings().modes.calendarPaths) ?? []
        let now = context.now
        let calendars = CalendarCheck.run(paths: paths, zone: context.zone, now: now)
        let missing = calendars.filter { !$0.exists }.map(\.path)
        let problems = calendars.flatMap(\.problems)
        let detail = paths.isEmpty ? "none (add one with `screentime calendar add PATH`)"
            : "\(paths.count) configured" + (missing.isEmpty ? "" : "; missing: " + missing.joined(separator: ", "))
            + (problems.isEmpty ? "" : "; \(problems.count) problems (also in `screentime calendar list`):")
        line(missing.isEmpty && problems.isEmpty, calendarTopic, detail)
        for problem in problems { context.print(String(repeating: " ", count: width + 7) + problem.description) }
        let sync = SyncStatusText.doctorFinding(environment: context.environment, now: now, zone: context.zone)
        line(sync.ok, "sync", sync.detail)
        for problem in sync.problems { context.print(String(repeating: " ", count: width + 7) + problem) }
    }
}
