import ChildProcesses
import Logging
import AgentControl
import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// The weekly summary beside the loop. At the first activity of a new week (`WeeklySummary.decide`)
/// it runs `screentime report --from --to --html PAGE --json` as a short-lived child (the agent
/// links no report code) and, when the child ends, turns its figures into the notification. The
/// week last summed up is kept in `$XDG_STATE_HOME/screentime/weekly-summary`, so a restart does
/// not show it twice; the page is `last-week.html` beside it. Opening the page is a child too.
final class WeeklySummaryNotice {
    /// The `screentime` executable beside the running one.
    let executable: String
    let environment: [String: String]
    let statePath: String
    let pagePath: String
    /// The longest the report may take before it is stopped.
    var timeout: TimeInterval = 10
    /// The week in which the summary was last shown (nil before the first run).
    private(set) var remembered: CivilDate?
    private var report: (child: ChildProcess, days: ClosedRange<CivilDate>)?
    private var opener: ChildProcess?
    /// The day in which the last activity called for nothing, and the settings it was decided
    /// with: the same holds for every activity until that day ends.
    private var quietDay: (days: Range<Date>, boundary: DayBoundary, weekStart: Weekday)?

    init(executable: String = SiblingExecutable.path(), environment: [String: String]) {
        self.executable = executable
        self.environment = environment
        let directory = XDGPaths.stateDirectory(environment: environment)
        statePath = directory + "/weekly-summary"
        pagePath = directory + "/last-week.html"
        remembered = (try? Data(contentsOf: URL(fileURLWithPath: statePath)))
            .flatMap { CivilDate(parsing: String(String(decoding: $0, as: UTF8.self).prefix { $0 != "\n" })) }
    }

    /// The running children's output, for the poll set.
    func forEachDescriptor(_ body: (Int32) -> Void) {
        if let fd = report?.child.fileDescriptor, fd >= 0 { body(fd) }
        if let fd = opener?.fileDescriptor, fd >= 0 { body(fd) }
    }

    /// When a running child is stopped if it has not finished.
    var nextDeadline: Date? {
        earliest(report?.child.deadline, opener?.deadline)
    }

    /// The user was active at `now`: on the first activity of a new week, remembers the week and
    /// starts the report of the week before. Cheap when nothing is due (every focus calls it): the
    /// calendar is asked again only on another day. Handed the two settings it reads, not all of
    /// them: a copy of the whole settings at every focus switch costs more than the rest.
    func activity(at now: Date, reportSettings: ReportSettings, boundary: DayBoundary, zone: LocalTimeZone) {
        guard reportSettings.weeklySummary else { return }
        let weekStart = reportSettings.weekStart
        if let quietDay, quietDay.days.contains(now), quietDay.boundary == boundary, quietDay.weekStart == weekStart { return }
        let decision = WeeklySummary.decide(activityAt: now, remembered: remembered, boundary: boundary, weekStart: weekStart, zone: zone)
        guard let week = decision.week else {
            quietDay = (boundary.start(of: now, in: zone)..<boundary.end(of: now, in: zone), boundary, weekStart)
            return
        }
        remember(week)
        guard case .summarize = decision else { return }
        let days = WeeklySummary.summarized(before: week)
        report?.child.stop()
        do {
            let child = try ChildProcess(executable, ["report", "--from", days.lowerBound.description, "--to", days.upperBound.description,
                                                      "--html", pagePath, "--json"],
                                         environment: environment, timeout: timeout, now: now)
            report = (child, days)
            Log.info("weekly summary: reporting \(days.lowerBound) to \(days.upperBound)")
        } catch {
            Log.warning("weekly summary: \(error)")
        }
    }

    /// Takes in the children's output; returns the notification once the report has ended well.
    func outputArrived() -> NotificationRequest? {
        if let running = opener {
            do {
                if let status = try running.readAvailable() {
                    opener = nil
                    if status != 0 { Log.warning("weekly summary: \(running.commandLine) exited with status \(status)") }
                }
            } catch {
                opener = nil
                Log.warning("weekly summary: \(error)")
            }
        }
        guard let (running, days) = report else { return nil }
        do {
            guard let status = try running.readAvailable() else { return nil }
            report = nil
            guard status == 0 else {
                Log.warning("weekly summary: `\(running.commandLine)` exited with status \(status)")
                return nil
            }
            return WeeklySummary.notification(try WeeklySummary.Figures.decode(running.output), days: days, page: pagePath)
        } catch {
            report = nil
            Log.warning("weekly summary: \(error)")
            return nil
        }
    }

    /// Stops a child that ran past its deadline.
    func stopOverdue(now: Date) {
        if let running = report?.child, now >= running.deadline {
            running.stop()
            report = nil
            Log.warning("weekly summary: \(running.commandLine) took longer than \(DurationText.spoken(timeout)) and was stopped")
        }
        if let running = opener, now >= running.deadline {
            running.stop()
            opener = nil
        }
    }

    /// Opens the page with the desktop's handler (`xdg-open`, else `gio open`), in the background:
    /// a browser it starts outlives the agent's short wait for the shell that launched it.
    func openPage(now: Date) {
        let script = "{ if command -v xdg-open >/dev/null; then xdg-open \"$1\"; else gio open \"$1\"; fi; } </dev/null >/dev/null 2>&1 &"
        do {
            opener = try ChildProcess("/bin/sh", ["-c", script, "sh", pagePath], environment: environment, timeout: timeout, now: now)
        } catch {
            Log.warning("weekly summary: cannot open \(pagePath): \(error)")
        }
    }

    private func remember(_ week: CivilDate) {
        remembered = week
        do {
            // The folder holds last week's page, a week of per-app, per-hour usage: private.
            try PrivateFiles.makeFolder(XDGPaths.stateDirectory(environment: environment))
            try PrivateFiles.write(Array("\(week)\n".utf8), to: statePath)
        } catch {
            Log.warning("weekly summary: cannot write \(statePath) (the summary may show again after a restart): \(error)")
        }
    }
}
