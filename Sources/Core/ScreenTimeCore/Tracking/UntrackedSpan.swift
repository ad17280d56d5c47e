import FoundationEssentials

/// Why the agent did not count a span of the session: facts, never blame.
public enum UntrackedCause: String, CaseIterable, Codable, Sendable {
    /// It was stopped: a signal (`systemctl --user stop`, Ctrl-C) or an error it reported.
    case stopped
    /// It ended without a word: killed (SIGKILL), crashed, or the power went.
    case endedUnexpectedly = "ended-unexpectedly"
    /// The session started without it.
    case noAgent = "no-agent"

    /// The words a report shows by the span.
    public var words: String {
        switch self {
        case .stopped: "the agent was stopped"
        case .endedUnexpectedly: "the agent ended without a clean exit (killed, crashed or power lost)"
        case .noAgent: "the session started without the agent"
        }
    }
}

/// A span when the session was there and the agent was not: nothing was counted in it.
public struct UntrackedSpan: Equatable, Codable, Sendable {
    public var start: Date
    public var end: Date
    public var cause: UntrackedCause
    /// What is known beyond the cause (`SIGTERM`), empty when nothing is.
    public var detail: String

    public init(start: Date, end: Date, cause: UntrackedCause, detail: String = "") {
        self.start = start
        self.end = end
        self.cause = cause
        self.detail = detail
    }

    public var seconds: TimeInterval { end.timeIntervalSince(start) }

    /// `14:02–14:35 (33m): the agent was stopped (SIGTERM)`; with the date when `withDate`.
    public func line(in zone: LocalTimeZone, withDate: Bool = false) -> String {
        let (from, to) = (zone.localDateTime(of: start), zone.localDateTime(of: end))
        let start = withDate ? "\(from.date) \(from.time)" : "\(from.time)"
        let end = from.date == to.date ? "\(to.time)" : "\(to.date) \(to.time)"
        let detail = detail.isEmpty ? "" : " (\(detail))"
        return "\(start)–\(end) (\(DurationText.format(max(1, seconds.rounded())))): \(cause.words)\(detail)"
    }
}

/// One run of the agent as the store keeps it: when it started, when it last said it was alive,
/// and how it ended (nil while running, or when it never got to say).
public struct AgentRun: Equatable, Sendable {
    public var started: Date
    public var alive: Date
    public var ended: Date?
    public var endReason: String?
    /// The logind session it ran in (`XDG_SESSION_ID`), empty when unknown.
    public var session: String

    public init(started: Date, alive: Date, ended: Date? = nil, endReason: String? = nil, session: String = "") {
        self.started = started
        self.alive = alive
        self.ended = ended
        self.endReason = endReason
        self.session = session
    }
}

/// The spans the agent missed, found when it starts: from the last run's end (or its last sign of
/// life) to now, as far as the same session goes; and from the session's start when the session
/// is newer than the last run.
public enum TrackingGaps {
    /// Shorter gaps are a restart, not time missed.
    public static let shortest: TimeInterval = 10
    /// A session's first seconds pass before any autostarted agent runs.
    public static let startupGrace: TimeInterval = 60

    /// Whether what `found` gives depends on `sessionStart`: unless both runs name their session,
    /// and the same one, the last run may have been another session's, dated from this one's start.
    public static func needsSessionStart(last: AgentRun?, session: String) -> Bool {
        guard let last else { return false }
        return session.isEmpty || last.session.isEmpty || session != last.session
    }

    /// `session` and `sessionStart`: the logind session the agent starts in, when known;
    /// `bootTime`: when the machine started (a run before it was another session).
    public static func found(last: AgentRun?, session: String, sessionStart: Date?, bootTime: Date?, now: Date) -> [UntrackedSpan] {
        guard let last else { return [] }
        let lastEnd = last.ended ?? last.alive
        let sameSession: Bool
        if !session.isEmpty, !last.session.isEmpty { sameSession = session == last.session }
        else if let bootTime, bootTime > lastEnd { sameSession = false }
        else if let sessionStart, sessionStart > lastEnd { sameSession = false }
        else { sameSession = true }
        var spans: [UntrackedSpan] = []
        if sameSession {
            let (cause, detail) = Self.cause(of: last)
            spans.append(UntrackedSpan(start: lastEnd, end: now, cause: cause, detail: detail))
        } else if let sessionStart, sessionStart < now {
            // A new session: the agent was not there when it began (what the old one missed after
            // its last sign of life is not known: when that session ended is not kept).
            spans.append(UntrackedSpan(start: max(sessionStart, lastEnd), end: now, cause: .noAgent))
        }
        return spans.filter { span in
            span.seconds >= (span.cause == .noAgent ? startupGrace : shortest)
        }
    }

    static func cause(of run: AgentRun) -> (UntrackedCause, String) {
        guard run.ended != nil else { return (.endedUnexpectedly, "") }
        let reason = run.endReason ?? ""
        let signals = ["signal 15": "SIGTERM", "signal 2": "SIGINT, Ctrl-C", "signal 1": "SIGHUP"]
        return (.stopped, signals[reason] ?? reason)
    }
}
