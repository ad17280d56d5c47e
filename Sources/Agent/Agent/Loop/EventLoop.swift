import Glibc
import FoundationEssentials
import SystemErrors

/// One poll over every source's descriptors, with a timeout at the earliest of their deadlines;
/// then each source with a ready descriptor or a due deadline gets the turn's instant.
final class EventLoop {
    private let sources: [LoopSource]
    // Reused every turn: a turn allocates nothing when the descriptors stay the same.
    private var requests: [PollRequest] = []
    private var fds: [pollfd] = []
    private var owners: [Int] = []
    private var deadlines: [Date?] = []
    private var ready: [Int32] = []

    init(sources: [LoopSource]) { self.sources = sources }

    /// Waits for the sources from `now` (the previous turn's instant), at most `maximumWait`
    /// milliseconds when given (a test's virtual clock does not pass while poll waits), then
    /// serves them at the instant `beginTurn` reads.
    func turn(now: Date, maximumWait: Int32?, beginTurn: () -> Date) throws {
        fds.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
        deadlines.removeAll(keepingCapacity: true)
        var soonest: Date?
        for (index, source) in sources.enumerated() {
            requests.removeAll(keepingCapacity: true)
            source.pollRequests(into: &requests)
            for request in requests where request.descriptor >= 0 {
                // Output a socket did not take yet (a large reply) is written as it drains.
                fds.append(pollfd(fd: request.descriptor, events: Int16(request.wantsOutput ? POLLIN | POLLOUT : POLLIN), revents: 0))
                owners.append(index)
            }
            let deadline = source.nextDeadline(now: now)
            deadlines.append(deadline)
            soonest = earliest(soonest, deadline)
        }
        var timeout = soonest.map { $0.timeIntervalSince(now).pollMilliseconds } ?? -1
        if let maximumWait, timeout < 0 || timeout > maximumWait { timeout = maximumWait }
        // A signal interrupting the wait is a turn like another: the signal pipe says which.
        var readyCount = poll(&fds, nfds_t(fds.count), timeout)
        if readyCount < 0 {
            guard Errno.current == .interrupted else { throw AgentError.poll(Errno.current.description) }
            readyCount = 0
        }
        let turn = beginTurn()
        for (index, source) in sources.enumerated() {
            ready.removeAll(keepingCapacity: true)
            if readyCount > 0 {
                for (entry, owner) in zip(fds, owners) where owner == index && entry.revents != 0 { ready.append(entry.fd) }
            }
            let due = deadlines[index].map { $0 <= turn } ?? false
            if !ready.isEmpty || due { source.handle(ready: ready, now: turn) }
        }
    }
}
