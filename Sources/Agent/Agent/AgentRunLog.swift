import Logging
import FoundationEssentials
import ScreenTimeCore
import LocalSystem
import UsageStore

/// The agent's own run in the store: begun at start (recording what the last run missed, with its
/// cause), marked alive every minute, ended on every clean way out. What is missing after a
/// SIGKILL or a crash is the end, so the next start knows.
final class AgentRunLog {
    static let aliveEvery: TimeInterval = 60
    private(set) var run: Int64?
    private(set) var nextMark: Date?

    /// Records the spans missed since the last run, and begins this one. When the last run was
    /// another session's, what was missed depends on when this session began, which logind is
    /// asked (`askSessionStart`, answered later or never): the spans are recorded with its answer.
    func begin(store: UsageDatabase, environment: [String: String], now: Date,
               askSessionStart: (@escaping (Date?) -> Void) -> Bool) {
        let session = environment["XDG_SESSION_ID"] ?? ""
        do {
            let last = try store.lastAgentRun()
            let bootTime = Self.bootTime()
            let record = { (sessionStart: Date?) in
                for span in TrackingGaps.found(last: last, session: session, sessionStart: sessionStart, bootTime: bootTime, now: now) {
                    do { try store.recordUntracked(span) } catch { Log.warning("the time not tracked cannot be recorded: \(error)") }
                    Log.info("not tracked: \(span.line(in: SystemTimeZone(), withDate: true))")
                }
            }
            if !TrackingGaps.needsSessionStart(last: last, session: session) || !askSessionStart(record) {
                record(nil)
            }
            run = try store.beginAgentRun(at: now, session: session)
            nextMark = now.addingTimeInterval(Self.aliveEvery)
        } catch {
            Log.warning("the agent's run cannot be recorded: \(error)")
        }
    }

    func markAlive(store: UsageDatabase, now: Date) {
        guard let run else { return }
        nextMark = now.addingTimeInterval(Self.aliveEvery)
        do { try store.markAgentAlive(run: run, at: now) } catch { Log.warning("the agent's run cannot be recorded: \(error)") }
    }

    func end(store: UsageDatabase, now: Date, reason: String) {
        guard let run else { return }
        do { try store.markAgentEnded(run: run, at: now, reason: reason) } catch { Log.warning("the agent's run cannot be recorded: \(error)") }
        self.run = nil
        nextMark = nil
    }

    /// When the machine started (`/proc/stat`, `btime`).
    static func bootTime() -> Date? { field("btime ", in: "/proc/stat").map { Date(timeIntervalSince1970: $0) } }

    private static func field(_ prefix: String, in path: String) -> Double? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }
}

/// The agent's minute mark of life in the store.
final class AgentAliveSource: LoopSource {
    private unowned(unsafe) let agent: AgentRunner

    init(_ agent: AgentRunner) { self.agent = agent }

    func nextDeadline(now: Date) -> Date? { agent.runLog.nextMark }

    func handle(ready: [Int32], now: Date) { agent.runLog.markAlive(store: agent.store, now: now) }
}
