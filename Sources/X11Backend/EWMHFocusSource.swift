import FoundationEssentials
import ScreenTimeCore

/// Follows focus through the root window's `_NET_ACTIVE_WINDOW` (set by every EWMH window
/// manager) and the focused window's title, from PropertyNotify events: no polling.
///
/// Openbox (and others) set `_NET_ACTIVE_WINDOW` to None between two windows while focus moves.
/// A None is therefore only reported as `.focused(nil)` once it has lasted `noneDebounce`:
/// `nextPoll(after:)` asks to be called again then. A transient dialog (WM_TRANSIENT_FOR) is
/// reported with its own WM_CLASS, which toolkits set to its parent app's.
///
/// Events come through the connection's `X11EventRouter`, shared with the idle watch: the source
/// keeps the PropertyNotify events it cares about until its drain.
public final class EWMHFocusSource: FocusSource {
    public let backendName = "EWMH _NET_ACTIVE_WINDOW"
    /// How long `_NET_ACTIVE_WINDOW` must stay None before focus counts as gone.
    public let noneDebounce: TimeInterval

    /// Whether a window's title is needed, from its other facts (the agent needs it only for an
    /// app with a title rule). Elsewhere the title is neither read (a round trip per switch) nor
    /// followed (a wakeup for every property the window changes), and is reported empty.
    public var needsTitle: (WindowFacts) -> Bool = { _ in true }

    private let connection: X11Connection
    private let inspector: WindowInspector
    private let clock: () -> Date
    /// The focus last reported (or found at start): changes are measured against it.
    private var reported: WindowFacts?
    /// The window whose title changes we listen to.
    private var watched: Window?
    /// When `_NET_ACTIVE_WINDOW` became None, while that is not yet reported.
    private var noneSince: Date?
    /// The last drain stopped at its bound with events still queued.
    private var backlog = false
    /// Handed over by the router since the last drain.
    private var activeChanged = false
    private var titleChanged = false
    private var subscription: X11EventRouter.Subscription?

    public init(connection: X11Connection, noneDebounce: TimeInterval = 0.15, clock: @escaping () -> Date = { Date() }) throws {
        self.connection = connection
        self.inspector = WindowInspector(connection: connection)
        self.noneDebounce = noneDebounce
        self.clock = clock
        // This source drains the connection's events, so the connection may cache window facts.
        try connection.watchRootProperties()
        reported = try focusedWindow()
        subscription = connection.events.subscribe { [weak self] event in self?.received(event) }
    }

    deinit {
        if let subscription { connection.events.unsubscribe(subscription) }
    }

    /// Changes made before our last read of the same property are left out: that read saw them
    /// (openbox's None then the new window often both precede it).
    private func received(_ event: XEventSummary) {
        guard case .propertyChanged(let window, let atom, let serial) = event else { return }
        if window == connection.root && atom == connection.atoms.netActiveWindow && serial >= activeReadSerial {
            activeChanged = true
        }
        if window == watched && (atom == connection.atoms.netWMName || atom == connection.atoms.wmName)
            && serial >= titleReadSerial {
            titleChanged = true
        }
    }

    /// The request serials of the last reads of `_NET_ACTIVE_WINDOW` and of the watched title.
    private var activeReadSerial: UInt = 0
    private var titleReadSerial: UInt = 0

    public var pollDescriptor: Int32 { connection.fileDescriptor }

    /// What `needsTitle` answers may have changed (the title rules did): the focused window is
    /// read again at the next drain, which reports its title as a change when it is now needed.
    public func needsTitleChanged() {
        activeChanged = true
    }

    public func currentFocus() throws -> WindowFacts? {
        guard let active = try inspector.activeWindow() else { return nil }
        return try facts(of: active)
    }

    /// The active window's facts, with its title where needed: listening to its title changes
    /// from before the title is read (a rename in between is not missed). Nil when None or the
    /// window is gone. The read of `_NET_ACTIVE_WINDOW` brings in the client list's changes before
    /// the cached facts are trusted.
    private func focusedWindow() throws -> WindowFacts? {
        activeReadSerial = connection.display.nextRequestSerial
        guard let active = try inspector.activeWindow() else { return nil }
        return try ignoringGoneWindow {
            var facts = try inspector.facts(of: active, readingTitle: false)
            guard needsTitle(facts) else {
                try watchTitle(of: nil)
                return facts
            }
            try watchTitle(of: active)
            titleReadSerial = connection.display.nextRequestSerial
            facts.title = try inspector.title(of: active)
            return facts
        }
    }

    private func facts(of window: Window) throws -> WindowFacts? {
        try ignoringGoneWindow { try inspector.facts(of: window) }
    }

    private func ignoringGoneWindow(_ read: () throws -> WindowFacts) throws -> WindowFacts? {
        do {
            return try read()
        } catch let error as X11Error where error.isWindowGone {
            return nil
        }
    }

    public func nextPoll(after now: Date) -> Date? {
        if backlog || activeChanged || titleChanged { return now }
        return noneSince.map { $0.addingTimeInterval(noneDebounce) }
    }

    public func drainEvents() throws -> [FocusEvent] {
        var events: [FocusEvent] = []
        // Reading properties can queue new events inside Xlib, where polling the socket would not
        // see them: go on until the queue is empty after our own round trips. A window renaming
        // itself without pause must not hold the agent here: past a bound, `nextPoll` asks to be
        // called again at once.
        backlog = true
        for round in 0..<Self.maxRounds {
            // Another component's drain may have read our events already: they wait in the flags.
            // After the first round, the events that matter are those our own replies brought in
            // (queued already); later ones make the socket readable and wake the agent again.
            let read = round == 0 ? try connection.events.dispatchPending(limit: Self.maxEventsPerRound)
                                  : try connection.events.dispatchQueued(limit: Self.maxEventsPerRound)
            let (active, title) = (activeChanged, titleChanged)
            (activeChanged, titleChanged) = (false, false)
            if active {
                events += try activeWindowChanged()
            } else if title {
                events += try titleMayHaveChanged()
            }
            if read == 0 && !active && !title {
                backlog = false
                break
            }
        }
        if let since = noneSince, clock() >= since.addingTimeInterval(noneDebounce) {
            noneSince = nil
            events += try activeWindowChanged(debounced: true)
        }
        return events
    }

    private static let maxRounds = 8
    private static let maxEventsPerRound = 256

    private func activeWindowChanged(debounced: Bool = false) throws -> [FocusEvent] {
        guard let facts = try focusedWindow() else {
            guard reported != nil else { return [] }
            guard debounced else {
                if noneSince == nil { noneSince = clock() }
                return []
            }
            reported = nil
            try watchTitle(of: nil)
            return [.focused(nil)]
        }
        noneSince = nil
        if let reported, reported.window == facts.window {
            guard facts.title != reported.title else { return [] }
            self.reported = facts
            return [.titleChanged(facts)]
        }
        reported = facts
        return [.focused(facts)]
    }

    private func titleMayHaveChanged() throws -> [FocusEvent] {
        guard var facts = reported else { return [] }
        do {
            titleReadSerial = connection.display.nextRequestSerial
            let title = try inspector.title(of: Window(facts.window))
            guard title != facts.title else { return [] }
            facts.title = title
            reported = facts
            return [.titleChanged(facts)]
        } catch let error as X11Error where error.isWindowGone {
            return []  // the window closed; the WM's change of _NET_ACTIVE_WINDOW follows
        }
    }

    /// Listens to PropertyNotify on the focused window only (when its title is needed), and stops
    /// on the one before. The requests need no reply and are not waited for (a window that closed
    /// meanwhile gives an error that is dropped); they go out with the next read, or are flushed
    /// here when no read follows (no window to watch).
    private func watchTitle(of window: Window?) throws {
        guard window != watched else { return }
        if let old = watched { try connection.display.selectInput(old, mask: XConstants.noEventMask) }
        watched = window
        if let window {
            try connection.display.selectInput(window, mask: XConstants.propertyChangeMask)
        } else {
            try connection.display.flush()
        }
    }
}
