import FoundationEssentials

/// One thing the agent's loop waits on: the descriptors it polls (or none), the instant it next
/// wants a turn without input (or none), and what it does in a turn where either came. Adding a
/// kind of event to the agent is one new source and one line in `AgentRunner.makeSources`.
/// Sources hold their agent `unowned(unsafe)`: the agent owns the loop that owns them, and a
/// checked reference cost a retain and a release of the agent (in its side table, for its weak
/// references) per source and turn, 7% of a focus switch's instructions.
protocol LoopSource: AnyObject {
    /// Appends the descriptors to poll this turn.
    func pollRequests(into requests: inout [PollRequest])
    /// When the source next wants a turn though nothing is readable; `now` is the turn's instant.
    func nextDeadline(now: Date) -> Date?
    /// A turn for this source: `ready` holds those of its descriptors that poll found ready (empty
    /// when only its deadline came). `now` is the instant the loop read for this turn.
    func handle(ready: [Int32], now: Date)
}

extension LoopSource {
    func pollRequests(into requests: inout [PollRequest]) {}
    func nextDeadline(now: Date) -> Date? { nil }
}

/// A descriptor to poll, and whether its owner has output waiting for it to drain.
struct PollRequest {
    var descriptor: Int32
    var wantsOutput = false
}

/// The earlier of two deadlines, either of which may be none. Deadlines are asked for at every turn:
/// this allocates nothing, where `[a, b].compactMap { $0 }.min()` allocates two arrays.
func earliest(_ first: Date?, _ second: Date?) -> Date? {
    guard let first else { return second }
    guard let second else { return first }
    return min(first, second)
}
