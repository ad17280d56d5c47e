import FoundationEssentials

/// The calls a connection sent without waiting: each reply's handler by the call's serial, and when
/// to give up on it. Time is an argument (the connection passes the monotonic clock).
struct PendingReplies {
    typealias Handler = (Result<[BusValue], Error>) -> Void

    private var waiting: [UInt32: (deadline: ContinuousClock.Instant, handler: Handler)] = [:]

    var isEmpty: Bool { waiting.isEmpty }

    /// The earliest moment a call gives up (asked at every turn of a poll loop, mostly of none).
    var nextDeadline: ContinuousClock.Instant? {
        guard !waiting.isEmpty else { return nil }
        return waiting.values.map(\.deadline).min()
    }

    mutating func add(serial: UInt32, deadline: ContinuousClock.Instant, handler: @escaping Handler) {
        waiting[serial] = (deadline, handler)
    }

    /// The handler waiting for the reply to `serial`, removed: a reply is handled once.
    mutating func take(_ serial: UInt32) -> Handler? {
        waiting.removeValue(forKey: serial)?.handler
    }

    /// The handlers whose deadline has passed at `now`, removed, in deadline order.
    mutating func takeOverdue(at now: ContinuousClock.Instant) -> [Handler] {
        let overdue = waiting.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (serial, _) in overdue { waiting[serial] = nil }
        return overdue.map(\.value.handler)
    }

    mutating func removeAll() { waiting.removeAll() }
}
