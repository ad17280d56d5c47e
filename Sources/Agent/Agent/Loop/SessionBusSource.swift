import Logging
import FoundationEssentials

/// The agent's session bus connection: method calls to `AgentService`, signals (notification
/// actions, screen savers, media players, shell extensions), replies and their timeouts. Lost, it
/// is reconnected in 2 s, for a minute (`AgentRunner.sessionBusLost`); the providers that spoke
/// over it go too.
final class SessionBusSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func pollRequests(into requests: inout PollRequests) {
        guard let connection = agent.bus?.connection else { return }
        requests.add(connection.fileDescriptor, wantsOutput: connection.hasPendingOutput)
    }

    func nextDeadline(now: Date) -> Date? {
        guard let connection = agent.bus?.connection else { return nil }
        // A message read during a blocking call (AddMatch at connect) waits for no descriptor.
        return connection.hasQueuedIncoming ? now : connection.nextReplyDeadline(now: now)
    }

    func handle(ready: [Int32], now: Date) {
        guard let bus = agent.bus else { return }
        do { if !ready.isEmpty || bus.connection.hasQueuedIncoming { try bus.connection.dispatchPending() } } catch {
            return agent.sessionBusLost(error, at: now)
        }
        if let due = bus.connection.nextReplyDeadline(now: now), due <= now { bus.connection.expireOverdueReplies() }
    }
}
