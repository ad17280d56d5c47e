/// How a browser's window becomes a site while the extension reports its active tab: the app is
/// the site (`youtube.com`), with the browser's icon, counted, limited and restricted like an app.
/// A private window is one app, "private browsing", and never names its sites.
public enum SiteApp {
    /// The desktop-entry Category that marks an app as a site: its groups come from the site
    /// lists (`SiteGroup`) and the user's edits, never from the browser's categories, and title
    /// rules (which look for WebBrowser) leave it alone: the extension named it.
    public static let category = "X-ScreenTime-Site"
    /// The app of every private (incognito) window.
    public static let privateBrowsing = AppID("private-browsing")

    /// The app `site` is when shown in `browser`'s window.
    public static func app(_ site: Site, in browser: AppInfo) -> AppInfo {
        AppInfo(id: AppID(site.domain), name: site.domain, icon: browser.icon, categories: [category])
    }

    /// The app of a private window of `browser`.
    public static func privateWindow(in browser: AppInfo) -> AppInfo {
        AppInfo(id: privateBrowsing, name: "Private browsing (\(browser.name))", icon: browser.icon, categories: [category])
    }

    /// What an app known only by its id (stored usage, a limit, a report) is: a site when its id
    /// is one with a dot (`youtube.com`, as only the extension makes them), or private browsing;
    /// else nothing is known of it.
    public static func known(by id: AppID) -> AppInfo {
        if id == privateBrowsing { return AppInfo(id: id, name: "Private browsing", categories: [category]) }
        if id.rawValue.contains("."), Site(domain: id.rawValue) != nil { return AppInfo(id: id, name: id.rawValue, categories: [category]) }
        return AppInfo(id: id, name: id.rawValue, icon: id.rawValue)
    }

    /// Whether `app` is a site (or private browsing) that the extension named.
    public static func isSite(_ app: AppInfo) -> Bool { app.categories.contains(category) }

    /// The groups a site belongs to of itself: `content` for the built-in lists' sites, else
    /// `browsers` (added by `Settings.groups(of:)` when the user's edits leave it in no group).
    static func builtInGroups(of app: AppInfo) -> Set<AppGroup> {
        guard let site = Site(domain: app.id.rawValue), SiteGroup.of(site) != nil else { return [] }
        return [.content]
    }
}
