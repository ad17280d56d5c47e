import FoundationEssentials

/// The agent's file watches (`FileWatches`): the config, the calendars' folders, the desktop
/// entries and the synced folder, each called when its files changed.
final class FileWatchSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) { requests.add(agent.fileWatches.fileDescriptor) }

    func nextDeadline(now: Date) -> Date? { agent.fileWatches.nextLook(now: now) }

    func handle(ready: [Int32], now: Date) { agent.fileWatches.dispatch(now: now) }
}
