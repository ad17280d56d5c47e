import FoundationEssentials

/// The desktop's connections (focus, idle, minimize, the screen filter's): what they read, the
/// deadlines they keep (polling, idle readings) and input they hold that their descriptor will not
/// signal. A failing connection drops the whole desktop, which is looked for again.
final class DesktopSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        for connection in agent.desktop?.connections ?? [] {
            requests.add(connection.pollDescriptor, wantsInput: !connection.holdsInput, wantsOutput: connection.wantsToWrite)
        }
    }

    func nextDeadline(now: Date) -> Date? { agent.desktop?.nextDeadline(after: now) }

    /// The last turn read only the desktop's own sockets, and nothing came of it for the agent
    /// (no focus, title or idle change): a window or property the agent does not follow changed.
    private(set) var servedQuietly = false

    func handle(ready: [Int32], now: Date) {
        servedQuietly = false
        guard let desktop = agent.desktop else { return }
        let reports = agent.desktopReports
        var ownSocketsOnly = true
        do {
            for connection in desktop.connections {
                // A connection without a socket of its own rides another's (the session bus's), whose
                // other messages and pending calls are other sources' business.
                if ready.contains(connection.pollDescriptor) || connection.hasBufferedInput {
                    ownSocketsOnly = ownSocketsOnly && connection.pollDescriptor >= 0
                    try connection.handleReadable()
                } else if let due = connection.nextDeadline(after: now), due <= now {
                    ownSocketsOnly = ownSocketsOnly && connection.pollDescriptor >= 0
                    try connection.handleDeadline(now: now)
                }
                // A connection's events can end the desktop (a lost display): the rest went with it.
                guard agent.desktop === desktop else { return }
            }
        } catch {
            return agent.desktopLost(error, at: now)
        }
        servedQuietly = ownSocketsOnly && agent.desktopReports == reports
    }
}
