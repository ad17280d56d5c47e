/// Reads the events of one connection once and hands each to every component that subscribed:
/// the focus source (PropertyNotify) and the idle watch (XSync alarms, screen-saver events) share
/// a connection, and whichever drains first reads the socket for both. Each subscriber keeps what
/// it was handed until its own drain.
final class X11EventRouter {
    /// Held `unowned(unsafe)`: a subscriber unsubscribes in its deinit. A weak reference would give
    /// it a side table, and every retain and release of it the slow path; a closure per subscriber
    /// cost a reabstraction thunk and a context at every event.
    private struct Subscriber {
        unowned(unsafe) let subscriber: X11EventSubscriber
    }

    private let display: XDisplay
    let codes: ExtensionEventCodes
    private var subscribers: [Subscriber] = []

    init(display: XDisplay, codes: ExtensionEventCodes) {
        self.display = display
        self.codes = codes
    }

    /// `subscriber` is handed every event from `dispatchPending`, on the connection's thread,
    /// until it unsubscribes (in its deinit at the latest).
    func subscribe(_ subscriber: X11EventSubscriber) {
        subscribers.append(Subscriber(subscriber: subscriber))
    }

    func unsubscribe(_ subscriber: X11EventSubscriber) {
        subscribers.removeAll { $0.subscriber === subscriber }
    }

    /// Reads up to `limit` events, those queued in Xlib and those readable on the socket without
    /// blocking (one read of the socket), and dispatches each; returns how many were read. Once
    /// the owner calls `socketPolled()` after each poll, the socket is read at most once between
    /// two polls (the idle watch and the focus source both drain): what arrives later makes it
    /// readable again, and the next turn reads it.
    @discardableResult
    func dispatchPending(limit: Int = 256) throws -> Int {
        // No flush either (XFlush reads the socket too): every request without a reply is
        // flushed where it is made, or followed by a round trip.
        if readsOncePerPoll && readSincePoll { return try dispatchQueued(limit: limit) }
        readSincePoll = true
        return try dispatch(limit: limit, available: try display.pendingEvents())
    }

    private var readsOncePerPoll = false
    private var readSincePoll = false

    /// The owner polled the socket: the next `dispatchPending` reads it.
    func socketPolled() {
        readsOncePerPoll = true
        readSincePoll = false
    }

    /// Dispatches up to `limit` events Xlib has queued already, without reading the socket (no
    /// syscall): those the server sent before the replies read so far. Returns how many.
    @discardableResult
    func dispatchQueued(limit: Int = .max) throws -> Int {
        try dispatch(limit: limit, available: display.queuedEvents())
    }

    private func dispatch(limit: Int, available: Int32) throws -> Int {
        var read = 0
        var queued = available
        while read < limit && queued > 0 {
            try dispatchNext()
            read += 1
            queued -= 1
            // Handlers make no requests, but count again once the known ones are done.
            if queued == 0 { queued = display.queuedEvents() }
        }
        return read
    }

    private func dispatchNext() throws {
        let event = try display.nextEvent(codes: codes)
        if case .other = event { return }
        for entry in subscribers { entry.subscriber.received(event) }
    }

    /// Events wait in Xlib's queue, where polling the socket would not see them (our own round
    /// trips read them in).
    var hasQueuedEvents: Bool { display.queuedEvents() > 0 }
}

/// A component reading a connection's events through its `X11EventRouter`: the focus source, the
/// idle watch, the window facts cache.
protocol X11EventSubscriber: AnyObject {
    /// One event, read for everyone; kept until the subscriber's own drain.
    func received(_ event: XEventSummary)
}
