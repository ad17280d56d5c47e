import FoundationEssentials
import ScreenTimeCore

/// What the browsers' extensions last said, per browser process (the pid the native host was
/// started by, which is the pid of the browser's windows): the tab in front of its focused window.
/// Joined to the focused window by that pid: two browsers, or two profiles in their own
/// processes, never mix. Holds nothing that must outlive the agent: a host tells a new agent again.
final class BrowserReports {
    struct Browser: Equatable {
        var name: String
        var tab: BrowserTab?
        var since: Date
    }

    private(set) var browsers: [UInt32: Browser] = [:]
    /// The focused window as the desktop last told it, to name its app again when its browser
    /// reports another tab.
    var focusedWindow: WindowFacts?
    /// Browsers beyond this many (pids never reused this fast) start the memory again.
    static let memoryLimit = 64

    func hello(_ pid: UInt32, name: String, at now: Date) {
        if browsers.count >= Self.memoryLimit, browsers[pid] == nil { browsers.removeAll() }
        browsers[pid] = Browser(name: name, tab: browsers[pid]?.tab, since: now)
    }

    /// A new tab in front, or none of the browser's windows in front as the extension sees them
    /// (a private window it may not see, its developer tools): the browser's focused window is
    /// then the browser itself, never the last site. Returns whether the focused window's app may change.
    func tab(_ pid: UInt32, _ tab: BrowserTab, at now: Date) -> Bool {
        if browsers[pid] == nil { hello(pid, name: "browser", at: now) }
        guard browsers[pid]?.tab != tab else { return false }
        browsers[pid]?.tab = tab
        return focusedWindow?.pid.map { UInt32(truncatingIfNeeded: $0) } == pid
    }

    /// The browser closed (its host ended): its windows are the browser's own again.
    func gone(_ pid: UInt32) -> Bool {
        guard browsers.removeValue(forKey: pid) != nil else { return false }
        return focusedWindow?.pid.map { UInt32(truncatingIfNeeded: $0) } == pid
    }

    /// The app `window` (identified as `app`) shows: the site of its browser's tab in front,
    /// private browsing, or nil (the app itself) when its process reports nothing or a page of no site.
    func app(shownIn window: WindowFacts, identifiedAs app: AppInfo) -> AppInfo? {
        guard let pid = window.pid, let tab = browsers[UInt32(truncatingIfNeeded: pid)]?.tab, tab.focused else { return nil }
        if tab.incognito { return SiteApp.privateWindow(in: app) }
        return tab.site.map { SiteApp.app($0, in: app) }
    }

    /// The browser showing `site` in front: the focused window's, else any reporting it.
    func browser(showing site: AppID) -> UInt32? {
        let focused = focusedWindow?.pid.map { UInt32(truncatingIfNeeded: $0) }
        if let focused, browsers[focused]?.tab.map(Self.appID) == site { return focused }
        return browsers.first { $0.value.tab.map(Self.appID) == site }?.key
    }

    /// Whether the focused window's browser plays sound in its tab in front.
    func isAudible(pid: Int32?) -> Bool {
        guard let pid else { return false }
        return browsers[UInt32(truncatingIfNeeded: pid)]?.tab?.audible ?? false
    }

    private static func appID(_ tab: BrowserTab) -> AppID? {
        tab.incognito ? SiteApp.privateBrowsing : tab.site.map { AppID($0.domain) }
    }

    /// `Browsers()`: each browser that said hello, its name and since when (no sites).
    func listing() -> String {
        let items = browsers.sorted { $0.key < $1.key }.map { pid, browser in
            "{\"pid\":\(pid),\"name\":\(Self.quoted(browser.name)),\"since\":\(Int64(browser.since.timeIntervalSince1970))}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    private static func quoted(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
