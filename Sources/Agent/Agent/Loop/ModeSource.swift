import FoundationEssentials

/// What decides the mode over time: the decision's own next change (a schedule, bedtime, a break's
/// end), the calendars' periodic refresh or their folders' changes (`AgentRunner.calendarWatch`),
/// and the short-lived process that expands them. Each asks the mode resolver again.
final class ModeSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        if let expansion = agent.calendars.childFileDescriptor { requests.add(expansion) }
    }

    func nextDeadline(now: Date) -> Date? {
        earliest(earliest(agent.modeDecision?.next?.at, agent.calendars.nextRefresh),
                 earliest(agent.calendars.childDeadline, agent.calendars.nextLook))
    }

    func handle(ready: [Int32], now: Date) {
        let calendars = agent.calendars
        if let expansion = calendars.childFileDescriptor, ready.contains(expansion), calendars.childOutputArrived() {
            agent.calendarsChanged(now: now)
        }
        if calendars.stopOverdueChild(now: now) { agent.calendarsChanged(now: now) }
        func due(_ date: Date?) -> Bool { date.map { $0 <= now } ?? false }
        if due(agent.modeDecision?.next?.at) || due(calendars.nextRefresh) || due(calendars.nextLook) { agent.resolveMode(now: now) }
    }
}
