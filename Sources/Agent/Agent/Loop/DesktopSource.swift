import FoundationEssentials

/// The desktop's connections (focus, idle, minimize, the screen filter's): what they read, the
/// deadlines they keep (polling, idle readings) and input they hold that their descriptor will not
/// signal. A failing connection drops the whole desktop, which is looked for again.
final class DesktopSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        for connection in agent.desktop?.connections ?? [] {
            requests.add(connection.pollDescriptor, wantsOutput: connection.wantsToWrite)
        }
    }

    func nextDeadline(now: Date) -> Date? { agent.desktop?.nextDeadline(after: now) }

    func handle(ready: [Int32], now: Date) {
        guard let desktop = agent.desktop else { return }
        do {
            for connection in desktop.connections {
                if ready.contains(connection.pollDescriptor) || connection.hasBufferedInput {
                    try connection.handleReadable()
                } else if let due = connection.nextDeadline(after: now), due <= now {
                    try connection.handleDeadline(now: now)
                }
                // A connection's events can end the desktop (a lost display): the rest went with it.
                guard agent.desktop === desktop else { return }
            }
        } catch {
            agent.desktopLost(error, at: now)
        }
    }
}
