import FoundationEssentials

/// The desktop-entry folders: an app installed or changed while the agent runs is known at once.
final class DesktopEntriesSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        requests.add(agent.desktopEntryWatch.fileDescriptor)
    }

    func handle(ready: [Int32], now: Date) {
        agent.desktopEntriesChanged(at: now)
        // Reading every desktop entry is rare work: its code need not stay resident.
        CodePages.release()
    }
}
