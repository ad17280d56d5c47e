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
/// The focused window's interval ends when it is destroyed (DestroyNotify, selected on it) or
/// leaves `_NET_CLIENT_LIST`: openbox leaves `_NET_ACTIVE_WINDOW` on an app's last window after it
/// closed, and the server gives the next client the same window ids, so neither the active
/// window's id nor its title tells a closed window from its successor.
///
/// Events come through the connection's `X11EventRouter`, shared with the idle watch: the source
/// keeps the PropertyNotify events it cares about until its drain.
///
/// A window manager that passes through None (openbox) changes `_NET_ACTIVE_WINDOW` twice per
/// switch, the new window about half a millisecond after the None, once the server confirmed the
/// focus, and raises the window just before (`_NET_CLIENT_LIST_STACKING`): read as it comes, that
/// is three wakeups and two round trips. Once such a manager was seen, a switch's first change
/// (the raise, or a lone change of the active window) waits `burstWindow` for the rest, the socket
/// not polled for input meanwhile (`isHoldingReads`), and one read follows. A manager that names
/// the new window at once is read at once.
public final class EWMHFocusSource: FocusSource, X11EventSubscriber {
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
    /// The reported window, listened to for its destruction and, when its title is needed, its
    /// renames (`watchesTitle`).
    private var watched: Window?
    private var watchesTitle = false
    /// When `_NET_ACTIVE_WINDOW` became None, while that is not yet reported.
    private var noneSince: Date?
    /// The last drain left events to handle: those its own reads brought in.
    private var backlog = false
    /// Handed over by the router since the last drain.
    private var activeChanged = false
    private var titleChanged = false
    private var clientListChanged = false
    private var watchedDestroyed = false

    /// How long a switch's first change (a raise, or a change of `_NET_ACTIVE_WINDOW`) waits for
    /// the rest of its burst; 0: never.
    public let burstWindow: TimeInterval
    /// When the reads held for a burst are due; nil while none wait.
    private var readsDue: Date?
    /// The window manager passed through None on its last switch: the next begins with a burst.
    private var passesThroughNone = false
    /// `_NET_ACTIVE_WINDOW` changes handed over since the last drain's reads.
    private var activeChanges = 0
    /// The windows' stacking order changed (one was raised) since the last drain's reads.
    private var restacked = false

    public init(connection: X11Connection, noneDebounce: TimeInterval = 0.15, burstWindow: TimeInterval = 0,
                clock: @escaping () -> Date) throws {
        self.connection = connection
        self.inspector = WindowInspector(connection: connection)
        self.noneDebounce = noneDebounce
        self.burstWindow = burstWindow
        self.clock = clock
        // This source drains the connection's events, so the connection may cache window facts.
        try connection.watchRootProperties()
        reported = try focusedWindow()
        connection.events.subscribe(self)
    }

    deinit {
        connection.events.unsubscribe(self)
    }

    /// Changes made before our last read of the same property are left out: that read saw them
    /// (openbox's None then the new window often both precede it).
    private func propertyChanged(_ window: Window, _ atom: Atom, serial: UInt) {
        if window == connection.root && atom == connection.atoms.netActiveWindow && serial >= activeReadSerial {
            activeChanged = true
            activeChanges += 1
        }
        if window == connection.root && atom == connection.atoms.netClientList {
            clientListChanged = true
        }
        if window == connection.root && atom == connection.atoms.netClientListStacking {
            restacked = true
        }
        if window == watched && watchesTitle && (atom == connection.atoms.netWMName || atom == connection.atoms.wmName)
            && serial >= titleReadSerial {
            titleChanged = true
        }
    }

    func received(_ event: XEventSummary) {
        switch event {
        case .propertyChanged(let window, let atom, let serial):
            propertyChanged(window, atom, serial: serial)
        case .destroyed(let window) where window == watched:
            watchedDestroyed = true
        default:
            break
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

    /// The active window's facts, with its title where needed: listening to its destruction and
    /// title changes from before the title is read (a rename in between is not missed). Nil when
    /// None, or the window is gone or not in the client list. The read of `_NET_ACTIVE_WINDOW`
    /// brings in the client list's changes before the cached facts are trusted.
    private func focusedWindow() throws -> WindowFacts? {
        activeReadSerial = connection.display.nextRequestSerial
        guard let active = try inspector.activeWindow(),
              try connection.windowFacts.isListed(active, clientList: { try inspector.clientList() }) else { return nil }
        return try ignoringGoneWindow {
            var facts = try inspector.facts(of: active, readingTitle: false)
            guard needsTitle(facts) else {
                try watch(active, titles: false)
                return facts
            }
            try watch(active, titles: true)
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

    /// Reads wait for the rest of a burst: the socket's input waits with them.
    public var isHoldingReads: Bool { readsDue != nil }

    public func nextPoll(after now: Date) -> Date? {
        if let readsDue { return readsDue }
        if backlog || activeChanged || titleChanged { return now }
        return noneSince.map { $0.addingTimeInterval(noneDebounce) }
    }

    public func drainEvents() throws -> [FocusEvent] {
        var events: [FocusEvent] = []
        // One round per turn: the events, then what they ask to read. Our reads can bring in new
        // events (queued inside Xlib, where polling the socket would not see them): `nextPoll`
        // then asks to be called again at once. A round after a change of the client list reads
        // the focused window afresh, and each of its round trips may wait for the window manager's
        // grab of the server (openbox holds one while it manages each new window): a burst of
        // windows is followed over several short turns, the other sources served between them,
        // and a window renaming itself without pause cannot hold the agent either.
        // Another component's drain may have read our events already: they wait in the flags.
        try connection.events.dispatchPending(limit: Self.maxEventsPerRound)
        if waitsForBurst() { return [] }
        let (active, title, clients, destroyed) = (activeChanged, titleChanged, clientListChanged, watchedDestroyed)
        (activeChanged, titleChanged, clientListChanged, watchedDestroyed) = (false, false, false, false)
        activeChanges = 0
        restacked = false
        if try destroyed || clients && reportedLeftClientList() {
            events += try reportedWindowEnded(destroyed: destroyed)
        } else if active || clients {
            // A window the WM named active before listing it counts once it is listed.
            events += try activeWindowChanged()
        } else if title {
            events += try titleMayHaveChanged()
        }
        backlog = activeChanged || titleChanged || clientListChanged || watchedDestroyed || connection.hasQueuedEvents
        if let since = noneSince, clock() >= since.addingTimeInterval(noneDebounce) {
            noneSince = nil
            events += try activeWindowChanged(debounced: true)
        }
        return events
    }

    private static let maxEventsPerRound = 256

    /// Whether the reads wait for the rest of a burst: a raise, or a lone change of
    /// `_NET_ACTIVE_WINDOW`, that begins a switch (no None read is pending) from a manager that
    /// passes through None, for `burstWindow` from its drain. Once they are due, the manager is
    /// taken to pass through None still if the burst brought two changes of the active window
    /// (a raise alone, no switch, tells nothing).
    private func waitsForBurst() -> Bool {
        if let due = readsDue {
            guard clock() >= due else { return true }
            readsDue = nil
            if activeChanges > 0 { passesThroughNone = activeChanges >= 2 }
            return false
        }
        guard burstWindow > 0, passesThroughNone, noneSince == nil, activeChanges == 1 || restacked && activeChanges == 0,
              !clientListChanged, !watchedDestroyed else { return false }
        readsDue = clock().addingTimeInterval(burstWindow)
        return true
    }

    private func reportedLeftClientList() throws -> Bool {
        guard let reported else { return false }
        return try !connection.windowFacts.isListed(Window(reported.window), clientList: { try inspector.clientList() })
    }

    /// The reported window was destroyed or left the client list: its interval ends now (this is
    /// no None between two windows, so no debounce), and the window the WM names active now is
    /// reported as new, even under the same id.
    private func reportedWindowEnded(destroyed: Bool) throws -> [FocusEvent] {
        guard reported != nil else { return [] }
        if destroyed { watched = nil }  // the server dropped the selection with the window
        reported = nil
        noneSince = nil
        reported = try focusedWindow()
        if reported == nil { try watch(nil, titles: false) }
        return [.focused(reported)]
    }

    private func activeWindowChanged(debounced: Bool = false) throws -> [FocusEvent] {
        guard let facts = try focusedWindow() else {
            guard reported != nil else { return [] }
            guard debounced else {
                if noneSince == nil { noneSince = clock() }
                passesThroughNone = true
                return []
            }
            reported = nil
            try watch(nil, titles: false)
            return [.focused(nil)]
        }
        noneSince = nil
        // The same id with other facts (read afresh after the client list changed) is another window.
        if let reported, reported.window == facts.window, reported.isSameWindow(as: facts) {
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

    /// Listens to the focused window only: its destruction (StructureNotify) and, when its title
    /// is needed, its PropertyNotify; and stops on the one before. The requests need no reply and
    /// are not waited for (a window that closed meanwhile gives an error that is dropped); they go
    /// out with the next read, or are flushed here when no read follows (no window to watch).
    private func watch(_ window: Window?, titles: Bool) throws {
        guard window != watched || titles != watchesTitle else { return }
        if let old = watched, old != window { try connection.display.selectInput(old, mask: XConstants.noEventMask) }
        watched = window
        watchesTitle = titles && window != nil
        if let window {
            try connection.display.selectInput(window, mask: XConstants.structureNotifyMask
                                                   | (titles ? XConstants.propertyChangeMask : XConstants.noEventMask))
        } else {
            try connection.display.flush()
        }
    }
}
