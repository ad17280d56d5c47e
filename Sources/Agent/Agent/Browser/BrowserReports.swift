import FoundationEssentials
import ScreenTimeCore

/// One extension's native host: the browser process that started it (the pid of the browser's
/// windows) and its connection to the bus. A browser process may start several (Chromium runs the
/// profiles of one user-data folder in one process, each with its extension and host).
struct BrowserHost: Hashable {
    var pid: UInt32
    var connection: String
}

/// What the browsers' extensions last said, per host: the tab in front of its browser's focused
/// window. Joined to the focused window by the browser's pid, and among that browser's hosts by
/// which one sees a window of its own in front: two browsers, or two profiles, never mix (the
/// profile losing the focus says so, in whatever order the two reports come). Holds nothing that
/// must outlive the agent: a host tells a new agent again.
final class BrowserReports {
    struct Browser: Equatable {
        var name: String
        var tab: BrowserTab?
        var since: Date
        /// When its tab was last reported, in the order of reports: the later of two hosts both
        /// claiming the focus (a report in flight) is the one that got it.
        var reported = 0
        /// Its connection ended without a goodbye (the host was killed): its report stands until
        /// the extension's next host for the browser says hello, at once as a rule.
        var ended = false
    }

    private(set) var browsers: [BrowserHost: Browser] = [:]
    private var reports = 0
    /// The focused window as the desktop last told it, to name its app again when its browser
    /// reports another tab.
    var focusedWindow: WindowFacts?
    /// Hosts beyond this many (pids never reused this fast) start the memory again.
    static let memoryLimit = 64

    /// A host said hello: the ended hosts of its browser are replaced by it. Returns whether the
    /// host is new, and whether the focused window's app may change.
    @discardableResult
    func hello(_ host: BrowserHost, name: String, at now: Date) -> (new: Bool, focusMayChange: Bool) {
        if browsers.count >= Self.memoryLimit, browsers[host] == nil { browsers.removeAll() }
        let known = browsers[host]
        let replaced = browsers.keys.filter { $0.pid == host.pid && browsers[$0]?.ended == true }
        for old in replaced { browsers[old] = nil }
        browsers[host] = Browser(name: name, tab: known?.tab, since: now, reported: known?.reported ?? 0)
        return (known == nil, !replaced.isEmpty && isFocused(host.pid))
    }

    /// A new tab in front, or none of the profile's windows in front as the extension sees them
    /// (another app or profile, a private window it may not see, its developer tools): the
    /// browser's focused window is then another host's site or the browser itself, never the last
    /// site. Returns whether the focused window's app may change.
    func tab(_ host: BrowserHost, _ tab: BrowserTab) -> Bool {
        guard browsers[host] != nil, browsers[host]?.tab != tab else { return false }
        reports += 1
        browsers[host]?.tab = tab
        browsers[host]?.reported = reports
        return isFocused(host.pid)
    }

    /// The host's connection ended (the browser or its profile closed): its windows are the
    /// browser's own again, or another profile's. Nil when the host was not known; else whether
    /// the focused window's app may change.
    func gone(_ host: BrowserHost) -> Bool? {
        guard browsers.removeValue(forKey: host) != nil else { return nil }
        return isFocused(host.pid)
    }

    func knows(_ host: BrowserHost) -> Bool { browsers[host] != nil }

    /// A connection to the bus ended: the hosts on it are marked ended; returns them.
    func connectionEnded(_ connection: String) -> [BrowserHost] {
        let hosts = browsers.keys.filter { $0.connection == connection }
        for host in hosts { browsers[host]?.ended = true }
        return hosts
    }

    private func isFocused(_ pid: UInt32) -> Bool {
        focusedWindow?.pid.map { UInt32(truncatingIfNeeded: $0) } == pid
    }

    /// The tab in front of `pid`'s focused window: from the host that last said one of its
    /// windows is in front.
    private func focusedTab(of pid: UInt32) -> BrowserTab? {
        browsers.lazy.filter { $0.key.pid == pid && $0.value.tab?.focused == true }.max { $0.value.reported < $1.value.reported }?.value.tab
    }

    /// The app `window` (identified as `app`) shows: the site of its browser's tab in front,
    /// private browsing, or nil (the app itself) when its process reports nothing or a page of no site.
    func app(shownIn window: WindowFacts, identifiedAs app: AppInfo) -> AppInfo? {
        guard let pid = window.pid, let tab = focusedTab(of: UInt32(truncatingIfNeeded: pid)) else { return nil }
        if tab.incognito { return SiteApp.privateWindow(in: app) }
        return tab.site.map { SiteApp.app($0, in: app) }
    }

    /// The browser showing `site` in front: the focused window's, else any reporting it.
    func browser(showing site: AppID) -> UInt32? {
        if let focused = focusedWindow?.pid.map({ UInt32(truncatingIfNeeded: $0) }), focusedTab(of: focused).map(Self.appID) == site {
            return focused
        }
        return browsers.first { $0.value.tab.map(Self.appID) == site }?.key.pid
    }

    /// Whether the focused window's browser plays sound in its tab in front.
    func isAudible(pid: Int32?) -> Bool {
        guard let pid else { return false }
        return focusedTab(of: UInt32(truncatingIfNeeded: pid))?.audible ?? false
    }

    private static func appID(_ tab: BrowserTab) -> AppID? {
        tab.incognito ? SiteApp.privateBrowsing : tab.site.map { AppID($0.domain) }
    }

    /// `Browsers()`: each host that said hello, its browser's pid and name and since when (no sites).
    func listing() -> String {
        let items = browsers.sorted { ($0.key.pid, $0.key.connection) < ($1.key.pid, $1.key.connection) }.map { host, browser in
            "{\"pid\":\(host.pid),\"name\":\(Self.quoted(browser.name)),\"since\":\(Int64(browser.since.timeIntervalSince1970))}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    private static func quoted(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
