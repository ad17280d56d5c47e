import ScreenTimeCore
import LocalProcess

/// Reads what a window says about itself (ICCCM and EWMH properties) into `WindowFacts`.
struct WindowInspector {
    let connection: X11Connection
    var display: XDisplay { connection.display }
    var atoms: AtomTable { connection.atoms }

    /// The title is read every time (left empty when not `readingTitle`); the rest comes from the
    /// connection's `WindowFactsCache` when it knows the window. The title is read first: its reply
    /// brings in the client list's change events, which the cache applies before trusting an entry
    /// (without it, the caller has just read `_NET_ACTIVE_WINDOW` or `_NET_CLIENT_LIST`, whose
    /// reply does the same).
    func facts(of window: Window, readingTitle: Bool = true) throws -> WindowFacts {
        do {
            let title = readingTitle ? try title(of: window) : ""
            let stable = try connection.windowFacts.facts(of: window, clientList: { try clientList() }) {
                try stableFacts(of: window)
            }
            return WindowFacts(window: window.id, wmClass: stable.wmClass, wmInstance: stable.wmInstance, title: title,
                               pid: stable.pid, executable: stable.executable, declaredIDs: stable.declaredIDs,
                               transientFor: stable.transientFor?.id, role: stable.role)
        } catch let error as X11Error where error.isWindowGone {
            connection.windowFacts.forget(window)
            throw error
        }
    }

    /// Reads what `StableWindowFacts` holds (seven or eight round trips).
    func stableFacts(of window: Window) throws -> StableWindowFacts {
        let (instance, wmClass) = try classHint(of: window)
        let pid = try cardinals(window, atoms.netWMPID).first.map { Int32(truncatingIfNeeded: $0) }
        let localPID = try pid.flatMap { try isLocal(window) ? $0 : nil }
        let declared = try gtkApplicationID(of: window).map { [$0] } ?? []
        let transientFor = try cardinals(window, atoms.wmTransientFor).first.flatMap { $0 == 0 ? nil : Window(rawValue: $0) }
        let process = localPID.map(LocalProcess.identity(pid:))
        return StableWindowFacts(wmClass: wmClass, wmInstance: instance, pid: pid,
                                 executable: process?.executablePath.flatMap { $0.split(separator: "/").last.map(String.init) },
                                 declaredIDs: declared + (process?.declaredIDs ?? []),
                                 transientFor: transientFor == connection.root ? nil : transientFor,
                                 role: try role(of: window, wmClass: wmClass, instance: instance))
    }

    /// `_GTK_APPLICATION_ID` (UTF-8): the application id a GTK application's windows carry.
    func gtkApplicationID(of window: Window) throws -> String? {
        guard let value = try display.property(window, atoms.gtkApplicationID), !value.bytes.isEmpty else { return nil }
        let id = String(decoding: trimmed(value.bytes), as: UTF8.self)
        return id.isEmpty ? nil : id
    }

    /// `_NET_CLIENT_LIST` on the root; nil when the window manager does not set it.
    func clientList() throws -> [Window]? {
        try display.property(connection.root, atoms.netClientList, maxLength: 65536)
            .map { $0.items.map { Window(rawValue: $0) } }
    }

    /// WM_CLASS: two NUL-terminated strings, instance then class.
    func classHint(of window: Window) throws -> (instance: String?, wmClass: String?) {
        guard let value = try display.property(window, atoms.wmClass) else { return (nil, nil) }
        let parts = value.bytes.split(separator: 0, omittingEmptySubsequences: false).map { latin1($0) }
        return (parts.first.flatMap { $0.isEmpty ? nil : $0 }, parts.dropFirst().first.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `_NET_WM_NAME` (UTF-8), else WM_NAME. Untrusted text: decoded leniently, never interpreted.
    func title(of window: Window) throws -> String {
        if let value = try display.property(window, atoms.netWMName), !value.bytes.isEmpty {
            return String(decoding: trimmed(value.bytes), as: UTF8.self)
        }
        guard let value = try display.property(window, atoms.wmName) else { return "" }
        // WM_NAME is STRING (Latin-1) or COMPOUND_TEXT; the latter is read as UTF-8, which keeps
        // its ASCII and replaces the rest (apps that set COMPOUND_TEXT also set _NET_WM_NAME).
        return value.type == atoms.string ? latin1(trimmed(value.bytes)) : String(decoding: trimmed(value.bytes), as: UTF8.self)
    }

    /// Shell windows are never counted as an app: EWMH shell types, override-redirect windows and
    /// known lock screens/panels (`ShellWindows`).
    func role(of window: Window, wmClass: String?, instance: String?) throws -> WindowRole {
        let types = try cardinals(window, atoms.netWMWindowType).map { Atom(rawValue: $0) }
        if types.contains(where: atoms.shellWindowTypes.contains) { return .shell }
        if ShellWindows.isKnownShell(wmClass: wmClass, wmInstance: instance) { return .shell }
        return try display.attributes(window).overrideRedirect ? .shell : .normal
    }

    /// A window's pid means something here only when it runs on this machine (WM_CLIENT_MACHINE
    /// is our host name); windows that do not say are taken as local, as nearly all are.
    func isLocal(_ window: Window) throws -> Bool {
        guard let machine = try display.property(window, atoms.wmClientMachine), !machine.bytes.isEmpty else { return true }
        return latin1(trimmed(machine.bytes)) == LocalProcess.hostName
    }

    /// A format-32 property's items (windows, atoms, cardinals); empty when absent.
    func cardinals(_ window: Window, _ atom: Atom, maxLength: Int = 1024) throws -> [UInt] {
        try display.property(window, atom, maxLength: maxLength)?.items ?? []
    }

    func hasProperty(_ window: Window, _ atom: Atom) throws -> Bool {
        try display.property(window, atom, maxLength: 0) != nil
    }

    /// The window `_NET_ACTIVE_WINDOW` on the root names, nil when None or unset.
    func activeWindow() throws -> Window? {
        guard let raw = try cardinals(connection.root, atoms.netActiveWindow).first, raw != 0 else { return nil }
        return Window(rawValue: raw)
    }

    private func trimmed<C: BidirectionalCollection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        Array(bytes.reversed().drop { $0 == 0 }.reversed())
    }

    private func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
