/// Reads the events of one connection once and hands each to every component that subscribed:
/// the focus source (PropertyNotify) and the idle watch (XSync alarms, screen-saver events) share
/// a connection, and whichever drains first reads the socket for both. Each subscriber keeps what
/// it was handed until its own drain.
final class X11EventRouter {
    typealias Handler = (XEventSummary) -> Void
    /// Returned by `subscribe`, to unsubscribe.
    struct Subscription: Hashable {
        fileprivate let id: Int
    }

    private let display: XDisplay
    let codes: ExtensionEventCodes
    private var handlers: [(Subscription, Handler)] = []
    private var nextID = 0

    init(display: XDisplay, codes: ExtensionEventCodes) {
        self.display = display
        self.codes = codes
    }

    /// The handler is called from `dispatchPending`, on the connection's thread.
    func subscribe(_ handler: @escaping Handler) -> Subscription {
        nextID += 1
        let subscription = Subscription(id: nextID)
        handlers.append((subscription, handler))
        return subscription
    }

    func unsubscribe(_ subscription: Subscription) {
        handlers.removeAll { $0.0 == subscription }
    }

    /// Reads up to `limit` events, those queued in Xlib and those readable on the socket without
    /// blocking, and dispatches each; returns how many were read.
    @discardableResult
    func dispatchPending(limit: Int = 256) throws -> Int {
        var read = 0
        while read < limit, try display.pendingEvents() > 0 {
            read += 1
            try dispatchNext()
        }
        return read
    }

    /// Dispatches the events Xlib has queued already, without reading the socket (no syscall when
    /// there are none): those the server sent before the replies read so far.
    func dispatchQueued() throws {
        while display.queuedEvents() > 0 { try dispatchNext() }
    }

    private func dispatchNext() throws {
        let event = try display.nextEvent(codes: codes)
        if case .other = event { return }
        for (_, handler) in handlers { handler(event) }
    }

    /// Events wait in Xlib's queue, where polling the socket would not see them (our own round
    /// trips read them in).
    var hasQueuedEvents: Bool { display.queuedEvents() > 0 }
}
