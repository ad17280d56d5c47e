import ScreenTimeCore

/// Lists and minimizes client windows through EWMH and ICCCM.
public final class EWMHWindowControl {
    private let connection: X11Connection
    private let inspector: WindowInspector

    public init(connection: X11Connection) {
        self.connection = connection
        self.inspector = WindowInspector(connection: connection)
    }

    /// `_NET_CLIENT_LIST`, or, without it, every top-level's client window (WM_STATE) found by
    /// walking the tree. Windows that close while being read are left out.
    public func clientWindows() throws -> [WindowFacts] {
        try clientWindows(readingTitleWhere: { _ in true })
    }

    /// The client windows, each title read only where `needsTitle` says the rest of its facts
    /// call for it (elsewhere empty): a window's title costs a round trip, its other facts are
    /// usually cached.
    public func clientWindows(readingTitleWhere needsTitle: (WindowFacts) -> Bool) throws -> [WindowFacts] {
        var windows: [Window]
        if let list = try inspector.clientList() {
            windows = list
            try connection.windowFacts.noteClientList(list)
        } else {
            windows = try connection.display.queryTree(connection.root).children.compactMap { top in
                try ignoringVanishedWindow { try inspector.clientWindow(in: top) }
            }
        }
        return try windows.compactMap { window in
            try ignoringVanishedWindow {
                var facts = try inspector.facts(of: window, readingTitle: false)
                if needsTitle(facts) { facts.title = try inspector.title(of: window) }
                return facts
            }
        }
    }

    /// What the window says about itself now.
    public func facts(of window: WindowID) throws -> WindowFacts {
        try inspector.facts(of: Window(window))
    }

    /// The window `_NET_ACTIVE_WINDOW` names, nil when None.
    public func activeWindow() throws -> WindowID? {
        try inspector.activeWindow()?.id
    }

    /// Iconifies through the WM (ICCCM WM_CHANGE_STATE), unless `_NET_WM_ALLOWED_ACTIONS` exists
    /// and lacks `_NET_WM_ACTION_MINIMIZE`. The WM acts asynchronously: see `isMinimized`.
    public func minimize(_ id: WindowID) throws {
        let window = Window(id)
        let atoms = connection.atoms
        if let allowed = try connection.display.property(window, atoms.netWMAllowedActions, maxLength: 256),
           !allowed.items.contains(atoms.netWMActionMinimize.rawValue) {
            throw X11Error.actionNotAllowed(action: "_NET_WM_ACTION_MINIMIZE", window: id)
        }
        try connection.display.iconify(window)
    }

    /// ICCCM WM_STATE is IconicState; without WM_STATE, `_NET_WM_STATE` has `_NET_WM_STATE_HIDDEN`.
    public func isMinimized(_ id: WindowID) throws -> Bool {
        let window = Window(id)
        if let state = try connection.display.property(window, connection.atoms.wmState, maxLength: 2),
           let first = state.items.first {
            return first == XConstants.iconicState
        }
        return try inspector.cardinals(window, connection.atoms.netWMState).contains(connection.atoms.netWMStateHidden.rawValue)
    }
}
