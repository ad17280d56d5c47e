import Agent
import ScreenTimeCore

struct DoctorCommand: Subcommand {
    static let name = "doctor"
    static let abstract = "What this desktop supports: focus, idle, display, notifications, autostart"
    static let usage = ["doctor"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let findings = DesktopProbe.run(environment: context.environment)
        let width = findings.map(\.topic.count).max() ?? 0
        for finding in findings {
            context.print("\(finding.ok ? "ok  " : "warn") \(finding.topic.padded(to: width))  \(finding.detail)")
        }
    }
}
