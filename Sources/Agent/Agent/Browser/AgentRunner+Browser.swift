import FoundationEssentials
import Logging
import ScreenTimeCore
import SessionBus

/// The browser extension's reports joined to the focused window, and its restrictions carried out
/// in the tab: a site at its limit, or held back by the mode, gets the card over its page (through
/// the native host) instead of a minimized browser window with the user's other tabs in it.
extension AgentRunner {
    func browserHello(_ host: BrowserHost, name: String) {
        let (new, focusMayChange) = browsers.hello(host, name: name, at: now)
        if new, !host.connection.isEmpty { try? bus?.connection.addMatch(Self.connectionEndRule(host.connection)) }
        Log.info("browser: \(name) (pid \(host.pid)) connected its extension")
        if focusMayChange { refocusBrowser() }
    }

    /// The bus says when a host's connection ends, so a host killed without `BrowserGone` speaks
    /// for its browser only until the extension's next host says hello.
    private static func connectionEndRule(_ connection: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(connection)'"
    }

    /// A connection to the bus ended: a host's, whose report stands until its replacement's hello.
    func browserConnectionClosed(_ connection: String) {
        for host in browsers.connectionEnded(connection) {
            try? bus?.connection.removeMatch(Self.connectionEndRule(host.connection))
            Log.info("browser: the host of pid \(host.pid) ended without a goodbye")
        }
    }

    func browserTab(_ host: BrowserHost, _ tab: BrowserTab) {
        if !browsers.knows(host) { browserHello(host, name: "browser") }
        if browsers.tab(host, tab) { refocusBrowser() }
    }

    func browserGone(_ host: BrowserHost) {
        guard let focusMayChange = browsers.gone(host) else { return }
        if !host.connection.isEmpty { try? bus?.connection.removeMatch(Self.connectionEndRule(host.connection)) }
        if focusMayChange { refocusBrowser() }
        Log.info("browser: pid \(host.pid) closed its extension's connection")
    }

    /// The card's answer from the tab: Continue goes where every continue goes (recorded with its
    /// length and mode); the mode's choices as from the desktop's card; Close tab needs nothing
    /// more: the extension closed it.
    func browserChoice(_ pid: UInt32, site: AppID, choice: String) throws -> TimeInterval {
        switch choice {
        case CardChoice.continue:
            guard engine.canContinue(site, at: now) else {
                throw BusMethodError(name: AgentInterface.Error.unknownApp, message: "\(site) is not held back in a way Continue passes")
            }
            let granted = send(.continueRequested(site)).lazy.compactMap { action -> TimeInterval? in
                if case .recordBypass(_, _, _, let granted, _) = action { granted } else { nil }
            }.first
            return granted ?? 0
        case CardChoice.bedtime, CardChoice.stayUp, CardChoice.startDay:
            _ = try takeSleepAction(choice)
        case CardChoice.leaveMode:
            guard cardLeaveOffer(for: .notAllowed) != nil else {
                throw BusMethodError(name: AgentInterface.Error.invalidArgument, message: "\(engine.decision.mode) cannot be left early from a card now")
            }
            try leaveModeFromCard()
        default:
            break
        }
        return 0
    }

    /// The focused browser window shows another site: the engine hears it as a focus change.
    private func refocusBrowser() {
        guard let facts = browsers.focusedWindow else { return }
        focusMoved(to: facts, at: now)
    }

    /// The app a focused window counts as: its browser's site where the extension reports one.
    func browserSite(_ facts: WindowFacts, identifiedAs app: AppInfo) -> AppInfo {
        browsers.app(shownIn: facts, identifiedAs: app) ?? app
    }

    /// Whether `app` is a site shown by a browser with the extension: restricted in its tab.
    func restrictsInTab(_ app: AppID) -> Bool {
        SiteApp.isSite(engine.info(app)) && browsers.browser(showing: app) != nil
    }

    /// Covers the site's tab with its card (the browser window stays, with its other tabs): the
    /// agent's own words at once, then the card process's document with the mode's content.
    func restrictInTab(_ request: CardRequest) {
        guard let app = request.app, let pid = browsers.browser(showing: app.id) else { return }
        var request = request
        request.leave = cardLeaveOffer(for: request.occasion)
        let response = engine.settings.profile(for: request.mode, onBreak: request.breakEndsAt != nil).onDisallowedApp
        coverTab(pid, with: SiteCard(request: request, response: response, statistics: siteStatistics(app.id, at: request.at)))
        tabCards.compose(request, site: app.id, browser: pid, now: now)
    }

    func coverTab(_ pid: UInt32, with card: SiteCard) {
        do {
            try bus?.connection.emitSignal(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                           member: AgentInterface.Signal.siteRestricted,
                                           arguments: [.uint32(pid), .string(card.site), .string(card.json)])
        } catch { Log.warning("could not restrict \(card.site) in its tab: \(error)") }
    }

    /// The site was continued (from the tab, the CLI, a notification): its card goes.
    func allowInTab(_ app: AppID) {
        guard SiteApp.isSite(engine.info(app)), let pid = browsers.browser(showing: app) else { return }
        tabCards.drop(app)
        try? bus?.connection.emitSignal(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                        member: AgentInterface.Signal.siteAllowed, arguments: [.uint32(pid), .string(app.rawValue)])
    }

    /// The site's time today and a bar per day of the week, from the store (the agent's own
    /// connection: a restriction is rare, and the card must come within a fraction of a second).
    private func siteStatistics(_ app: AppID, at now: Date) -> CardStatistics? {
        let boundary = engine.settings.dayBoundary
        let today = zone.localDate(of: boundary.start(of: now, in: zone))
        let days = (-6...0).map { today.adding(days: $0) }
        let starts = (days + [today.adding(days: 1)]).map { boundary.start(ofDay: $0, in: zone) }
        guard let stored = try? store.intervals(from: starts[0], to: now) else { return nil }
        let intervals = stored.filter { $0.app == app }
        var week = days.indices.map { index in
            let (start, end) = (starts[index], min(starts[index + 1], now))
            let seconds = intervals.reduce(0.0) { $0 + max(0, min($1.end, end).timeIntervalSince(max($1.start, start))) }
            return CardDayBar(label: String(days[index].weekday.name.prefix(3)), seconds: seconds)
        }
        // Today's time as the engine counts it (what the store has not been given yet included).
        if !week.isEmpty { week[week.count - 1].seconds = max(week[week.count - 1].seconds, engine.used(app, at: now)) }
        return CardStatistics(today: week.last?.seconds ?? 0, week: week)
    }
}
