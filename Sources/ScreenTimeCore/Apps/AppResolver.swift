/// Names the app a window belongs to: the desktop entry that matches it (StartupWMClass, then
/// the entry id against WM_CLASS, then the executable), else the lower-cased WM_CLASS class.
public struct AppResolver: Sendable {
    private var byWMClass: [String: DesktopEntry] = [:]
    private var byID: [String: DesktopEntry] = [:]
    private var byExecutable: [String: DesktopEntry] = [:]

    public init(entries: [DesktopEntry]) {
        // Earlier entries win, as earlier XDG data directories do.
        for entry in entries.reversed() {
            if let wmClass = entry.startupWMClass { byWMClass[wmClass.lowercased()] = entry }
            byID[entry.id.lowercased()] = entry
            if let last = entry.id.split(separator: ".").last, last.count < entry.id.count {
                byID[last.lowercased()] = byID[last.lowercased()] ?? entry // org.gnome.Calculator ~ calculator
            }
            if let executable = entry.executable { byExecutable[executable.lowercased()] = entry }
        }
    }

    public func app(for window: WindowFacts) -> AppInfo {
        let classes = [window.wmClass, window.wmInstance].compactMap { $0?.lowercased() }.filter { !$0.isEmpty }
        let entry = classes.lazy.compactMap { byWMClass[$0] }.first
            ?? classes.lazy.compactMap { byID[$0] }.first
            ?? window.executable.flatMap { byExecutable[$0.lowercased()] }
        if let entry {
            return AppInfo(id: AppID(entry.id), name: entry.name, icon: entry.icon, categories: entry.categories)
        }
        let id = classes.first ?? window.executable?.lowercased() ?? "unknown"
        return AppInfo(id: AppID(id), name: window.wmClass ?? window.executable ?? id, icon: id)
    }
}
