import Glibc
import FoundationEssentials
import SystemErrors

/// One poll over every source's descriptors, with a timeout at the earliest of their deadlines;
/// then each source with a ready descriptor or a due deadline gets the turn's instant.
///
/// After a quiet turn (one source alone was served, and it says it changed nothing the others
/// depend on, as the desktop's connection does for an event about a window the agent does not
/// follow), the next turn asks that source alone again: the others' descriptors and deadlines are
/// what they answered before. Most of a desktop's events are such, all day.
final class EventLoop {
    private let sources: ContiguousArray<LoopSource>
    // Reused every turn: a turn allocates nothing when the descriptors stay the same.
    private var requests = PollRequests()
    private var askedAgain = PollRequests()
    /// Where each source's descriptors start in `requests` (they end where the next source's start):
    /// a turn finds a source's ready descriptors without a pass over everyone's.
    private var firstDescriptor: [Int]
    private var deadlines: [Date?]
    private var ready: [Int32] = []
    /// The source the last turn served alone and quietly, if it was such a turn.
    private var quietSource: Int?

    init(sources: [LoopSource]) {
        self.sources = ContiguousArray(sources)
        firstDescriptor = Array(repeating: 0, count: sources.count + 1)
        deadlines = Array(repeating: nil, count: sources.count)
    }

    /// Waits for the sources from `now` (the previous turn's instant), at most `maximumWait`
    /// milliseconds when given (a test's virtual clock does not pass while poll waits), then
    /// serves them at the instant `beginTurn` reads.
    func turn(now: Date, maximumWait: Int32?, beginTurn: () -> Date) throws {
        if !(quietSource.map { askAgain($0, now: now) } ?? false) { askEverySource(now: now) }
        var soonest: Date?
        for deadline in deadlines { soonest = earliest(soonest, deadline) }
        var timeout = soonest.map { $0.timeIntervalSince(now).pollMilliseconds } ?? -1
        if let maximumWait, timeout < 0 || timeout > maximumWait { timeout = maximumWait }
        // A signal interrupting the wait is a turn like another: the signal pipe says which.
        var readyCount = requests.poll(timeout: timeout)
        if readyCount < 0 {
            guard Errno.current == .interrupted else { throw AgentError.poll(Errno.current.description) }
            readyCount = 0
        }
        let turn = beginTurn()
        var served: (index: Int, count: Int) = (0, 0)
        for index in sources.indices {
            let (first, end) = (firstDescriptor[index], firstDescriptor[index + 1])
            // The list of ready descriptors is made only for a source that has one.
            if readyCount > 0, let firstReady = (first..<end).first(where: { requests[$0].isReady }) {
                ready.removeAll(keepingCapacity: true)
                for position in firstReady..<end where requests[position].isReady { ready.append(requests[position].descriptor) }
                sources[index].handle(ready: ready, now: turn)
                served = (index, served.count + 1)
                continue
            }
            if let deadline = deadlines[index], deadline <= turn {
                sources[index].handle(ready: [], now: turn)
                served = (index, served.count + 1)
            }
        }
        quietSource = served.count == 1 && sources[served.index].servedQuietly ? served.index : nil
    }

    private func askEverySource(now: Date) {
        requests.removeAll()
        // The tables are sized at start: written through their buffers, without a uniqueness
        // check at every element of every turn.
        deadlines.withUnsafeMutableBufferPointer { deadlines in
            firstDescriptor.withUnsafeMutableBufferPointer { firstDescriptor in
                for index in sources.indices {
                    let source = sources[index]
                    firstDescriptor[index] = requests.count
                    source.pollRequests(into: &requests)
                    deadlines[index] = source.nextDeadline(now: now)
                }
                firstDescriptor[sources.count] = requests.count
            }
        }
    }

    /// Asks the source at `index` alone for its descriptors and deadline; false when it now has
    /// more or fewer descriptors than before (every source is asked then).
    private func askAgain(_ index: Int, now: Date) -> Bool {
        askedAgain.removeAll()
        sources[index].pollRequests(into: &askedAgain)
        let first = firstDescriptor[index]
        guard askedAgain.count == firstDescriptor[index + 1] - first else { return false }
        requests.replace(from: first, with: askedAgain)
        deadlines[index] = sources[index].nextDeadline(now: now)
        return true
    }
}
