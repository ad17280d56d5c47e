import Glibc
import FoundationEssentials

/// One thing the agent's loop waits on: the descriptors it polls (or none), the instant it next
/// wants a turn without input (or none), and what it does in a turn where either came. Adding a
/// kind of event to the agent is one new source and one line in `AgentRunner.makeSources`.
/// Sources hold their agent `unowned(unsafe)`: the agent owns the loop that owns them, and a
/// checked reference cost a retain and a release of the agent (in its side table, for its weak
/// references) per source and turn, 7% of a focus switch's instructions.
protocol LoopSource: AnyObject {
    /// Adds the descriptors to poll this turn.
    func pollRequests(into requests: inout PollRequests)
    /// When the source next wants a turn though nothing is readable; `now` is the turn's instant.
    func nextDeadline(now: Date) -> Date?
    /// A turn for this source: `ready` holds those of its descriptors that poll found ready (empty
    /// when only its deadline came). `now` is the instant the loop read for this turn.
    func handle(ready: [Int32], now: Date)
    /// Whether the last `handle` changed nothing another source's descriptors or deadline depend
    /// on: the next turn may then ask this source alone (see `EventLoop`).
    var servedQuietly: Bool { get }
}

extension LoopSource {
    func pollRequests(into requests: inout PollRequests) {}
    func nextDeadline(now: Date) -> Date? { nil }
    var servedQuietly: Bool { false }
}

/// The descriptors of a turn, written straight into poll's table: the sources add to it at every
/// turn, so it is no list of requests copied into the table afterwards.
struct PollRequests {
    private var table: [pollfd] = []

    var count: Int { table.count }

    /// Polls `descriptor` (none when negative) for input unless its owner holds it back for now,
    /// and for output while its owner has output the socket did not take yet (a large reply,
    /// written as the socket drains). A descriptor polled for neither still reports a hang-up.
    mutating func add(_ descriptor: Int32, wantsInput: Bool = true, wantsOutput: Bool = false) {
        guard descriptor >= 0 else { return }
        table.append(pollfd(fd: descriptor, events: Int16((wantsInput ? POLLIN : 0) | (wantsOutput ? POLLOUT : 0)), revents: 0))
    }

    mutating func removeAll() { table.removeAll(keepingCapacity: true) }

    /// Puts `other`'s descriptors in place of as many from `position` on.
    mutating func replace(from position: Int, with other: PollRequests) {
        for offset in other.table.indices { table[position + offset] = other.table[offset] }
    }

    /// Polls the table, at most `timeout` ms (-1: no limit); poll's answer.
    mutating func poll(timeout: Int32) -> Int32 { Glibc.poll(&table, nfds_t(table.count), timeout) }

    /// The descriptor at `position` and whether poll found it ready.
    subscript(position: Int) -> (descriptor: Int32, isReady: Bool) {
        (table[position].fd, table[position].revents != 0)
    }
}

/// The earlier of two deadlines, either of which may be none. Deadlines are asked for at every turn:
/// this allocates nothing, where `[a, b].compactMap { $0 }.min()` allocates two arrays.
func earliest(_ first: Date?, _ second: Date?) -> Date? {
    guard let first else { return second }
    guard let second else { return first }
    return min(first, second)
}
