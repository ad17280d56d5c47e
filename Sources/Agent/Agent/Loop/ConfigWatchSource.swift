import FoundationEssentials

/// The config file's inotify watch: an edit (by hand, by the CLI) is new settings at once.
final class ConfigWatchSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner
    private let descriptor: Int32

    init(_ agent: AgentRunner) {
        self.agent = agent
        descriptor = agent.config.startWatching()
    }

    func pollRequests(into requests: inout PollRequests) { requests.add(descriptor) }

    func handle(ready: [Int32], now: Date) {
        guard agent.config.handleWatchEvents() else { return }
        agent.wantedSettingsChanged(at: now)
        // Parsing and applying a config is rare work: its code need not stay resident.
        CodePages.release()
    }
}
