import Logging
import FoundationEssentials
import ScreenTimeCore

extension AgentRunner {
    /// The user is active at `now` (a focus, input again): the first activity of a week starts
    /// the weekly summary.
    func weeklySummaryActivity(at now: Date) {
        weeklySummary.activity(at: now, reportSettings: engine.settings.report, boundary: engine.settings.dayBoundary, zone: zone)
    }

    /// The report (or the page's opener) wrote or ended: once the report is done, its notification.
    func weeklySummaryOutputArrived() {
        guard let request = weeklySummary.outputArrived() else { return }
        do { try bus?.notify(AgentBus.weeklySummaryNotice, request) } catch { Log.warning("weekly summary: \(error)") }
    }

    /// The notification's default action: the page, in the user's browser.
    func openWeeklySummaryPage() {
        weeklySummary.openPage(now: now)
    }
}
