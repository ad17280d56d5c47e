import Glibc
import FoundationEssentials
import ScreenTimeCore

/// Keeps the calendar intervals the mode resolver needs, expanded by `screentime calendar expand`
/// in a short-lived child process (the agent does not link libical, to stay small).
///
/// Call `refreshIfDue(paths:now:)` from the loop (and at `nextRefresh`): it expands again when the
/// configured paths change, when a file's size or modification time changes, or every 6 hours (the
/// window moves on). A failed expansion keeps the last good intervals and reports why in `problems`.
public final class CalendarRefresher {
    /// The `screentime` executable beside the running one.
    public let executable: String
    public let environment: [String: String]
    public var refreshEvery: TimeInterval = 6 * 3600
    /// The longest an expansion may take before it is stopped.
    public var timeout: TimeInterval = 10
    /// The window expanded around now: back as far as the resolver looks, ahead a month.
    public var lookBack: TimeInterval = ModeResolver.lookBack
    public var lookAhead: TimeInterval = 32 * 86_400

    /// Occurrences of events naming a mode, from the last good expansion.
    public private(set) var intervals: [CalendarInterval] = []
    /// `file:line: message` for each calendar problem, or why the expansion failed.
    public private(set) var problems: [String] = []
    public private(set) var lastRefresh: Date?
    private var lastPaths: [String]?
    private var lastFingerprint: CalendarFingerprint?

    public init(executable: String = CalendarRefresher.siblingExecutable(), environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    /// When the periodic refresh is due (nil before the first one).
    public var nextRefresh: Date? { lastRefresh?.addingTimeInterval(refreshEvery) }

    /// Whether the paths or their files changed, or the period passed.
    public func isDue(paths: [String], now: Date) -> Bool {
        guard let lastRefresh, paths == lastPaths else { return true }
        return now >= lastRefresh.addingTimeInterval(refreshEvery) || CalendarFingerprint(paths: paths) != lastFingerprint
    }

    /// Expands the calendars when due; returns whether `intervals` or `problems` changed.
    @discardableResult
    public func refreshIfDue(paths: [String], now: Date) -> Bool {
        guard isDue(paths: paths, now: now) else { return false }
        return refresh(paths: paths, now: now)
    }

    /// Expands the calendars now; returns whether `intervals` or `problems` changed.
    @discardableResult
    public func refresh(paths: [String], now: Date) -> Bool {
        let before = (intervals, problems)
        lastPaths = paths
        lastFingerprint = CalendarFingerprint(paths: paths)
        lastRefresh = now
        if paths.isEmpty {
            (intervals, problems) = ([], [])
        } else {
            do {
                let expansion = try expand(from: now.addingTimeInterval(-lookBack), to: now.addingTimeInterval(lookAhead))
                intervals = expansion.calendarIntervals
                problems = expansion.problems
            } catch {
                // The last good intervals stay; the problem is shown until the next refresh works.
                problems = ["calendars: \(error)"]
            }
        }
        return before.0 != intervals || before.1 != problems
    }

    /// Runs `screentime calendar expand --from --to` and decodes what it prints.
    func expand(from: Date, to: Date) throws -> CalendarExpansion {
        let arguments = ["calendar", "expand", "--from", String(Int64(from.timeIntervalSince1970.rounded(.down))),
                         "--to", String(Int64(to.timeIntervalSince1970.rounded(.up)))]
        let result = try ChildProcess.run(executable, arguments, environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw ChildProcess.Failure(description: "`screentime calendar expand` exited with status \(result.status)")
        }
        do { return try CalendarExpansion.decode(result.output) } catch {
            throw ChildProcess.Failure(description: "`screentime calendar expand` printed no valid JSON")
        }
    }

    /// `/proc/self/exe`'s directory + `/screentime`.
    public static func siblingExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(cString: buffer) : CommandLine.arguments[0]
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/screentime"
    }
}
