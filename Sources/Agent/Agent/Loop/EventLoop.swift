import Glibc
import FoundationEssentials
import SystemErrors

/// One poll over every source's descriptors, with a timeout at the earliest of their deadlines;
/// then each source with a ready descriptor or a due deadline gets the turn's instant.
final class EventLoop {
    private let sources: ContiguousArray<LoopSource>
    // Reused every turn: a turn allocates nothing when the descriptors stay the same.
    private var requests = PollRequests()
    /// Where each source's descriptors start in `requests` (they end where the next source's start):
    /// a turn finds a source's ready descriptors without a pass over everyone's.
    private var firstDescriptor: [Int]
    private var deadlines: [Date?]
    private var ready: [Int32] = []

    init(sources: [LoopSource]) {
        self.sources = ContiguousArray(sources)
        firstDescriptor = Array(repeating: 0, count: sources.count + 1)
        deadlines = Array(repeating: nil, count: sources.count)
    }

    /// Waits for the sources from `now` (the previous turn's instant), at most `maximumWait`
    /// milliseconds when given (a test's virtual clock does not pass while poll waits), then
    /// serves them at the instant `beginTurn` reads.
    func turn(now: Date, maximumWait: Int32?, beginTurn: () -> Date) throws {
        requests.removeAll()
        var soonest: Date?
        // The tables are sized at start: written through their buffers, without a uniqueness
        // check at every element of every turn.
        deadlines.withUnsafeMutableBufferPointer { deadlines in
            firstDescriptor.withUnsafeMutableBufferPointer { firstDescriptor in
                for index in sources.indices {
                    let source = sources[index]
                    firstDescriptor[index] = requests.count
                    source.pollRequests(into: &requests)
                    let deadline = source.nextDeadline(now: now)
                    deadlines[index] = deadline
                    soonest = earliest(soonest, deadline)
                }
                firstDescriptor[sources.count] = requests.count
            }
        }
        var timeout = soonest.map { $0.timeIntervalSince(now).pollMilliseconds } ?? -1
        if let maximumWait, timeout < 0 || timeout > maximumWait { timeout = maximumWait }
        // A signal interrupting the wait is a turn like another: the signal pipe says which.
        var readyCount = requests.poll(timeout: timeout)
        if readyCount < 0 {
            guard Errno.current == .interrupted else { throw AgentError.poll(Errno.current.description) }
            readyCount = 0
        }
        let turn = beginTurn()
        for index in sources.indices {
            let (first, end) = (firstDescriptor[index], firstDescriptor[index + 1])
            // The list of ready descriptors is made only for a source that has one.
            if readyCount > 0, let firstReady = (first..<end).first(where: { requests[$0].isReady }) {
                ready.removeAll(keepingCapacity: true)
                for position in firstReady..<end where requests[position].isReady { ready.append(requests[position].descriptor) }
                sources[index].handle(ready: ready, now: turn)
                continue
            }
            if let deadline = deadlines[index], deadline <= turn { sources[index].handle(ready: [], now: turn) }
        }
    }
}
