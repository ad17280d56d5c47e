import ScreenTimeCore

/// What a client window says about itself that does not change while the window manager
/// manages it: ICCCM lets WM_CLASS change only while the window is withdrawn, and the pid,
/// `_GTK_APPLICATION_ID`, WM_TRANSIENT_FOR (toolkits set a dialog's owner before mapping it), the
/// window type and override-redirect are set before mapping.
struct StableWindowFacts: Equatable {
    var wmClass: String?
    var wmInstance: String?
    var pid: Int32?
    var executable: String?
    var declaredIDs: [String]
    var transientFor: Window?
    var role: WindowRole
}

/// Remembers the stable facts of managed windows, so that a focus switch between known windows
/// reads only the active window and its title (six round trips fewer per window).
///
/// Soundness: an XID can be reused once its window is destroyed, and a withdrawn window may change
/// its WM_CLASS. Both take the window out of `_NET_CLIENT_LIST` (and a new one puts it back), so:
/// - only windows in the client list as last read are kept (an unmanaged window, such as an
///   override-redirect one, is read afresh every time);
/// - any PropertyNotify of `_NET_CLIENT_LIST` on the root forgets everything and the list is read
///   again at the next lookup. The server sends such an event before the reply to any later
///   request, so Xlib has queued it once that reply is read: every lookup follows a read of the
///   window (its title) and first applies the events already queued, without a round trip;
/// - a read that finds the window gone (BadWindow), or its DestroyNotify (the focus source selects
///   it on the focused window), forgets it.
/// This needs the root's PropertyChangeMask selected on the connection and its events drained by
/// someone: the cache works only once `enable()` was called (by the EWMH focus source, which
/// drains). Otherwise, and with window managers without `_NET_CLIENT_LIST`, every read is fresh.
final class WindowFactsCache: X11EventSubscriber {
    private let events: X11EventRouter
    private let root: Window
    private let clientListAtom: Atom
    private var entries: [Window: StableWindowFacts] = [:]
    /// `_NET_CLIENT_LIST` as last read, nil when unknown or changed since.
    private var clients: Set<Window>?
    /// The last read found `_NET_CLIENT_LIST` set: without it nothing is cached, and no window
    /// counts as unlisted.
    private var windowManagerListsClients = false
    /// A change of `_NET_CLIENT_LIST` was dispatched and not yet applied.
    private var clientListChanged = false
    private(set) var isEnabled = false

    init(events: X11EventRouter, root: Window, clientListAtom: Atom) {
        self.events = events
        self.root = root
        self.clientListAtom = clientListAtom
        events.subscribe(self)
    }

    deinit {
        events.unsubscribe(self)
    }

    /// Starts caching; the caller has selected PropertyChangeMask on the root and drains the
    /// connection's events.
    func enable() {
        isEnabled = true
        forgetAll()
    }

    func received(_ event: XEventSummary) {
        switch event {
        case .propertyChanged(let window, let atom, _) where window == root && atom == clientListAtom:
            clientListChanged = true
        case .destroyed(let window):
            forget(window)
        default:
            break
        }
    }

    /// `window`'s stable facts from the cache, or from `read` (then kept when the window is in the
    /// client list). Call it right after a read of the window, whose reply has brought in the
    /// client list's change events. `clientList` reads `_NET_CLIENT_LIST` (nil when unset).
    func facts(of window: Window, clientList: () throws -> [Window]?,
               read: () throws -> StableWindowFacts) throws -> StableWindowFacts {
        guard isEnabled else { return try read() }
        try catchUp()
        if let cached = entries[window] { return cached }
        try readClientListIfUnknown(clientList)
        let facts: StableWindowFacts
        do {
            facts = try read()
        } catch let error as X11Error where error.isWindowGone {
            entries[window] = nil
            throw error
        }
        // A change during the read (the window replaced by another with its id) forgets the list:
        // the facts are then returned but not kept.
        try catchUp()
        if clients?.contains(window) == true { entries[window] = facts }
        return facts
    }

    /// Whether `window` is in `_NET_CLIENT_LIST` (read when unknown, as in `facts(of:)`): a window
    /// that left it (destroyed, withdrawn) is no app in front, even where the window manager still
    /// names it active. True where the list is unknown (not enabled, or a window manager without it).
    func isListed(_ window: Window, clientList: () throws -> [Window]?) throws -> Bool {
        guard isEnabled else { return true }
        try catchUp()
        try readClientListIfUnknown(clientList)
        return !windowManagerListsClients || clients?.contains(window) != false
    }

    private func readClientListIfUnknown(_ clientList: () throws -> [Window]?) throws {
        guard clients == nil else { return }
        let list = try clientList()
        try catchUp()
        clients = Set(list ?? [])
        windowManagerListsClients = list != nil
    }

    /// `_NET_CLIENT_LIST` as just read by someone else (the window control), saving a read.
    func noteClientList(_ list: [Window]) throws {
        guard isEnabled else { return }
        try catchUp()
        if clients == nil {
            clients = Set(list)
            windowManagerListsClients = true
        }
    }

    /// A read found `window` gone: its id may come back as another window.
    func forget(_ window: Window) {
        entries[window] = nil
        clients?.remove(window)
    }

    /// How many windows are cached, for tests.
    var count: Int { entries.count }

    /// Applies the events Xlib has queued already (no request, no read of the socket).
    private func catchUp() throws {
        try events.dispatchQueued()
        if clientListChanged { forgetAll() }
    }

    private func forgetAll() {
        clientListChanged = false
        entries.removeAll()
        clients = nil
    }
}
