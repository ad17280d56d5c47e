import ChildProcesses
import Logging
import AgentControl
import Glibc
import FoundationEssentials
import ScreenTimeCore

/// Keeps the calendar intervals the mode resolver needs, expanded by `screentime calendar expand`
/// in a short-lived child process (the agent does not link libical, to stay small).
///
/// Call `refreshIfDue(paths:now:)` from the loop (and at `nextRefresh`): it starts an expansion when
/// the configured paths change, when a file's size or modification time changes, or every 6 hours
/// (the window moves on). The expansion runs beside the loop: poll `childFileDescriptor` and call
/// `childOutputArrived()` when it is readable, and `stopOverdueChild(now:)` at `childDeadline`.
/// A failed expansion keeps the last good intervals and reports why in `problems`.
///
/// The calendar folders' watch reports to `foldersChanged(now:)` and looks again at `nextLook`: once
/// the folders are quiet for `settle`, at most `settleLimit` after the first change, never while an
/// expansion runs, and at most once per `settleLimit`: a sync writing hundreds of files costs an
/// expansion a second while it lasts, not one per file.
public final class CalendarRefresher {
    /// `screentime-reader` beside the running executable (it runs `screentime calendar`).
    public let executable: String
    public let environment: [String: String]
    public var refreshEvery: TimeInterval = 6 * 3600
    /// The longest an expansion may take before it is stopped.
    public var timeout: TimeInterval = 10
    /// The window expanded around now: back as far as the resolver looks, ahead a month.
    public var lookBack: TimeInterval = ModeResolver.lookBack
    public var lookAhead: TimeInterval = CalendarRefresher.defaultLookAhead
    public static let defaultLookAhead: TimeInterval = 32 * 86_400
    /// How long the folders must stay quiet after a change before the files are looked at…
    public var settle: TimeInterval = 0.1
    /// …and the longest a look waits after the first change of a burst; also the shortest time
    /// between two expansions for changes.
    public var settleLimit: TimeInterval = 1

    /// Occurrences of events naming a mode, from the last good expansion.
    public private(set) var intervals: [CalendarInterval] = []
    /// `file:line: message` for each calendar problem, or why the expansion failed.
    public private(set) var problems: [String] = []
    public private(set) var lastRefresh: Date?
    /// Expansions started since the agent began (`status --json` diagnostics): a sync must cost few.
    public private(set) var expansionsStarted = 0
    private var lastPaths: [String]?
    private var lastFingerprint: CalendarFingerprint?
    private var child: ChildProcess?
    private var childStarted = ContinuousClock.now
    /// The first and the last change the watch reported since the files were last looked at.
    private var changes: (first: Date, last: Date)?

    public init(executable: String = SiblingExecutable.path(named: "screentime-reader"), environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    /// When the periodic refresh is due (nil before the first one).
    public var nextRefresh: Date? { lastRefresh?.addingTimeInterval(refreshEvery) }

    /// The running expansion's output, for the poll set; nil when none runs.
    public var childFileDescriptor: Int32? { child.map(\.fileDescriptor) }

    /// When the running expansion is stopped if it has not finished.
    public var childDeadline: Date? { child?.deadline }

    /// When to look at the files for the changes the watch reported: nil when none are pending, or
    /// while an expansion runs (which began before some of them: they are looked at when it ends).
    public var nextLook: Date? {
        guard child == nil, let changes else { return nil }
        let settled = min(changes.last.addingTimeInterval(settle), changes.first.addingTimeInterval(settleLimit))
        return max(settled, lastRefresh.map { $0.addingTimeInterval(settleLimit) } ?? settled)
    }

    /// The watch saw the calendar folders change: look at the files at `nextLook`.
    public func foldersChanged(now: Date) {
        changes = (changes?.first ?? now, now)
    }

    /// Whether the paths or their files changed, or the period passed.
    public func isDue(paths: [String], now: Date) -> Bool {
        guard let lastRefresh, paths == lastPaths else { return true }
        return now >= lastRefresh.addingTimeInterval(refreshEvery) || CalendarFingerprint(paths: paths) != lastFingerprint
    }

    /// Starts an expansion when due; returns whether `intervals` or `problems` changed at once (no
    /// paths, or the helper could not start). The expansion's own result comes from `childOutputArrived()`.
    /// An expansion of the same paths still running is left to finish: changes since are looked at
    /// after it (a sync would otherwise restart it with every file).
    @discardableResult
    public func refreshIfDue(paths: [String], now: Date) -> Bool {
        if child != nil && paths == lastPaths { return false }
        changes = nil
        guard isDue(paths: paths, now: now) else { return false }
        return refresh(paths: paths, now: now)
    }

    /// Starts an expansion now (stopping one still running for older paths); returns whether
    /// `intervals` or `problems` changed at once.
    @discardableResult
    public func refresh(paths: [String], now: Date) -> Bool {
        child?.stop()
        child = nil
        lastPaths = paths
        lastFingerprint = CalendarFingerprint(paths: paths)
        lastRefresh = now
        if paths.isEmpty { return update(intervals: [], problems: []) }
        let from = now.addingTimeInterval(-lookBack), to = now.addingTimeInterval(lookAhead)
        let arguments = ["calendar", "expand", "--from", String(Int64(from.timeIntervalSince1970.rounded(.down))),
                         "--to", String(Int64(to.timeIntervalSince1970.rounded(.up))),
                         "--now", String(Int64(now.timeIntervalSince1970.rounded(.down)))]
        do {
            child = try ChildProcess(executable, arguments, environment: environment, timeout: timeout, now: now)
            childStarted = .now
            expansionsStarted += 1
            return false
        } catch {
            return failed(error)
        }
    }

    /// Takes in the expansion's output; once it has ended, applies the result. Returns whether
    /// `intervals` or `problems` changed.
    public func childOutputArrived() -> Bool {
        guard let running = child else { return false }
        let status: Int32
        do {
            guard let exited = try running.readAvailable() else { return false }
            status = exited
        } catch {
            child = nil
            return failed(error)
        }
        child = nil
        guard status == 0 else {
            return failed(ChildProcess.Failure(description: "`screentime calendar expand` exited with status \(status)"))
        }
        guard let expansion = try? CalendarExpansion.decode(running.output) else {
            return failed(ChildProcess.Failure(description: "`screentime calendar expand` printed no valid JSON"))
        }
        // One line per expansion: the log shows each change picked up, and how long reading took.
        let took = Int(childStarted.duration(to: .now) / .milliseconds(1))
        Log.info("calendars read in \(took) ms: \(expansion.intervals.count) mode events")
        return update(intervals: expansion.calendarIntervals, problems: expansion.problems)
    }

    /// Stops an expansion that ran past its deadline; returns whether `problems` changed.
    public func stopOverdueChild(now: Date) -> Bool {
        guard let running = child, now >= running.deadline else { return false }
        running.stop()
        child = nil
        return failed(ChildProcess.Failure(description: "\(running.commandLine) took longer than \(DurationText.spoken(timeout)) and was stopped"))
    }

    /// The last good intervals stay; the problem is shown until the next refresh works.
    private func failed(_ error: Error) -> Bool {
        update(intervals: intervals, problems: ["calendars: \(error)"])
    }

    private func update(intervals newIntervals: [CalendarInterval], problems newProblems: [String]) -> Bool {
        let changed = newIntervals != intervals || newProblems != problems
        (intervals, problems) = (newIntervals, newProblems)
        return changed
    }
}
