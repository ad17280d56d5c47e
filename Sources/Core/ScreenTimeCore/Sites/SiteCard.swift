import FoundationEssentials

/// The card the extension lays over a restricted site's tab: the same words as the desktop's card
/// (today's time on the site, the week's bars, the mode's kind words), with the way through and
/// "Close tab" as its buttons. Sent as JSON in `SiteRestricted`; the page never sees it. The agent
/// sends its own at once, then the card process's document for the same request (the mode's
/// content: the next break and events, calm alternatives, leaving early, the mode's own choices).
public struct SiteCard: Codable, Equatable, Sendable {
    public struct Button: Codable, Equatable, Sendable {
        public var key: String
        public var label: String
        public var primary: Bool
        /// Opened in a new tab instead of answering (a calm alternative that is a link).
        public var link: String?
    }

    public var site: String
    public var title: String
    public var message: String
    /// "Today: 1 hour 5 minutes"; nil when the store could not be read.
    public var today: String?
    public var week: [CardDayBar]
    public var sections: [CardSection] = []
    public var buttons: [Button]

    public static let closeTab = "Close tab"

    /// The card for `request` (a site at its limit or held back by the mode), with `response` the
    /// mode's way of holding apps back and `statistics` the site's use from the store.
    public init(request: CardRequest, response: DisallowedAppResponse, statistics: CardStatistics?) {
        let app = request.app ?? AppInfo(id: AppID("screentime"), name: CardWording.unnamedApp)
        site = app.id.rawValue
        var buttons: [Button] = []
        switch request.occasion {
        case .limitReached:
            title = CardWording.limitTitle(app)
            let choice = request.grant.map { "It is your choice: leave it here for today, or continue for \(CardWording.spelled($0))." }
                ?? "It is your choice what to do next; \(app.name) is back tomorrow."
            let what = statistics.map { "You have used \(app.name) for \(CardWording.spelled($0.today)) today." }
                ?? "\(app.name) has reached its daily limit."
            message = "\(what) \(choice)"
            if let grant = request.grant { buttons.append(Button(key: CardChoice.continue, label: CardWording.continueFor(grant), primary: true)) }
        default:
            title = CardWording.notAllowedTitle(app, in: request.mode, response: response)
            message = CardWording.modeMessage(request.mode, response: response, app: app, grant: request.grant)
                .replacing("this app", with: "this site")
            if let grant = request.grant { buttons.append(Button(key: CardChoice.continue, label: Wording.moreTime(grant), primary: true)) }
        }
        buttons.append(Button(key: BrowserTab.closeTab, label: Self.closeTab, primary: buttons.isEmpty))
        self.buttons = buttons
        today = statistics.map { "Today: \(CardWording.spelled($0.today))" }
        week = statistics?.week ?? []
    }

    /// The card process's document for `site` as the tab shows it: its close is "Close tab", a
    /// link opens in a new tab, and what only the desktop can start (an app, the sleep music) is left out.
    public init(document: CardDocument, site: AppID) {
        self.site = site.rawValue
        title = document.title
        message = document.message.replacing("this app", with: "this site")
        today = document.statistics.map { "Today: \(CardWording.spelled($0.today))" }
        week = document.statistics?.week ?? []
        sections = document.sections
        var primaryGiven = false
        buttons = document.buttons.compactMap { button in
            var link: String?
            switch button.launch {
            case .uri(let uri)?: link = uri
            case .desktopEntry?, .music?: return nil
            case nil: break
            }
            let primary = button.role == .primary && !primaryGiven
            primaryGiven = primaryGiven || primary
            if button.role == .close { return Button(key: BrowserTab.closeTab, label: Self.closeTab, primary: false) }
            return Button(key: button.key, label: button.label, primary: primary, link: link)
        }
        if !primaryGiven, let close = buttons.indices.last { buttons[close].primary = true }
    }

    public var json: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
