/// Names the app a window belongs to, strongest evidence first:
/// 1. an id the window or its process declares (`WindowFacts.declaredIDs`): the first one with a
///    desktop entry. One that names no entry is no evidence (GNOME Shell's WindowTracker does the
///    same): GTK apps declare ids their entries do not have (`org.gnome.Charmap` for
///    `gucharmap.desktop`), and a non-unique GApplication a new one at every launch;
/// 2. the desktop entry whose `StartupWMClass` is exactly the WM_CLASS instance, then the class;
/// 3. the desktop entry whose id is exactly the class or the instance; or the one entry whose id is
///    the class up to case (toolkits capitalise the class from the program's name: `Mpv`, `Vlc`),
///    never the instance up to case, which `-name` and argv[0] set freely;
/// 4. what the window a dialog is transient for, or another window of the same process, was
///    identified as;
/// 5. else the lower-cased class.
/// Never by executable name or the tail of a dotted id: they guess (`xterm -class Notes` is
/// `notes`, not `debian-xterm`).
public struct AppResolver: Sendable {
    private var byID: [String: DesktopEntry] = [:]
    private var byWMClass: [String: DesktopEntry] = [:]
    private var byLowercasedID: [String: [DesktopEntry]] = [:]
    /// Windows and processes identified by evidence (1–4), for their dialogs and other windows.
    private var windowApps: [WindowID: AppInfo] = [:]
    private var processApps: [Int32: AppInfo] = [:]
    /// What `identify` answered per window while the windows and processes remembered stay the
    /// same: the agent asks at every focus switch (whether the title is needed, then the app),
    /// and a user moves among few windows. An answer holds for the same facts but the title.
    private var answers: [WindowID: (facts: WindowFacts, app: AppInfo)] = [:]
    /// Beyond this many answers they start again: the windows of a day come and go, and each
    /// answer keeps all of a window's facts.
    static let answersLimit = 32
    /// Beyond this many remembered windows the memory starts again: ids of closed windows and
    /// ended processes are never told, and a window seen again is identified again.
    static let memoryLimit = 4096

    public init(entries: [DesktopEntry]) {
        // Earlier entries win, as earlier XDG data directories do.
        for entry in entries.reversed() {
            if let wmClass = entry.startupWMClass { byWMClass[wmClass] = entry }
            byID[entry.id] = entry
            byLowercasedID[entry.id.lowercased(), default: []].append(entry)
        }
    }

    /// The app of `window`, remembering it for the window's dialogs and its process's other windows.
    public mutating func identify(_ window: WindowFacts) -> AppInfo {
        if let known = answer(for: window) { return known }
        if windowApps.count >= Self.memoryLimit {
            windowApps.removeAll()
            processApps.removeAll()
            answers.removeAll()
        }
        if answers.count >= Self.answersLimit { answers.removeAll(keepingCapacity: true) }
        let found = evidence(for: window) ?? inherited(by: window)
        if let found {
            // Another window's dialog or process may now inherit something else.
            if windowApps.updateValue(found, forKey: window.window) != found { answers.removeAll() }
            if let pid = window.pid, processApps[pid] == nil {
                processApps[pid] = found
                answers.removeAll()
            }
        }
        let app = found ?? fallback(for: window)
        // Kept without its title, which the answer does not depend on (and may be long).
        var facts = window
        facts.title = ""
        answers[window.window] = (facts, app)
        return app
    }

    /// The app of `window` from what is known now, remembering nothing.
    public func app(for window: WindowFacts) -> AppInfo {
        answer(for: window) ?? evidence(for: window) ?? inherited(by: window) ?? fallback(for: window)
    }

    private func answer(for window: WindowFacts) -> AppInfo? {
        guard let known = answers[window.window], known.facts.isSameWindow(as: window) else { return nil }
        return known.app
    }

    private func evidence(for window: WindowFacts) -> AppInfo? {
        for id in window.declaredIDs {
            if let declared = byID[id] { return info(declared) }
        }
        // Looked up one after the other, and the class lower-cased only when all else failed: the
        // agent asks at every focus switch, and for every window of an app it minimizes. No
        // closures here: one capturing `self` copies the resolver's tables at every call.
        let (instance, wmClass) = (window.wmInstance ?? "", window.wmClass ?? "")
        if !instance.isEmpty, let entry = byWMClass[instance] { return info(entry) }
        if !wmClass.isEmpty, let entry = byWMClass[wmClass] { return info(entry) }
        if window.wmClass != nil, let entry = byID[wmClass] { return info(entry) }
        if window.wmInstance != nil, let entry = byID[instance] { return info(entry) }
        guard window.wmClass != nil, let fits = byLowercasedID[wmClass.lowercased()], fits.count == 1 else { return nil }
        return info(fits.first)
    }

    private func inherited(by window: WindowFacts) -> AppInfo? {
        if let owner = window.transientFor, let app = windowApps[owner] { return app }
        guard let pid = window.pid else { return nil }
        return processApps[pid]
    }

    private func fallback(for window: WindowFacts) -> AppInfo {
        func named(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        let name = named(window.wmClass) ?? named(window.wmInstance) ?? named(window.executable)
        let id = name?.lowercased() ?? "unknown"
        return AppInfo(id: AppID(id), name: name ?? id, icon: id)
    }

    private func info(_ entry: DesktopEntry?) -> AppInfo? {
        entry.map { AppInfo(id: AppID($0.id), name: $0.name, icon: $0.icon, categories: $0.categories) }
    }
}
