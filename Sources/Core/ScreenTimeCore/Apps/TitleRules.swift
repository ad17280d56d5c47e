/// A virtual app made from window titles: `youtube = firefox:YouTube` makes a firefox window
/// whose title contains "YouTube" (in any case) the app `youtube`, limited, counted and reported
/// like any app.
public struct TitleRule: Equatable, Sendable {
    public struct Match: Equatable, Sendable {
        public var app: AppID
        /// Matched case-insensitively anywhere in the (untrusted) title.
        public var title: String

        public init(app: AppID, title: String) {
            self.app = app
            self.title = title
        }

        /// `firefox:YouTube`; the title is what follows the first colon.
        public init?(text: String) {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let app = text[..<colon].trimmingWhitespace()
            let title = text[text.index(after: colon)...].trimmingWhitespace()
            guard !app.isEmpty, !title.isEmpty else { return nil }
            self.init(app: AppID(app), title: title)
        }

        public var text: String { "\(app.rawValue):\(title)" }

        /// The app `*` stands for any web browser (an app whose entry has the WebBrowser category).
        public static let anyBrowser: AppID = "*"

        /// Whether windows of `app` are the ones this match looks at; `isBrowser` is whether `app`
        /// is a web browser, found once for all the rules.
        func applies(to app: AppInfo, isBrowser: Bool) -> Bool {
            self.app == Self.anyBrowser ? isBrowser : app.id == self.app
        }
    }

    public var name: AppID
    public var matches: [Match]

    public init(name: AppID, matches: [Match]) {
        self.name = name
        self.matches = matches
    }
}

extension TitleRule {
    /// The sites where content hides, as apps of their own in any browser: content, so limited
    /// like apps and disabled in Productivity while the browser stays. `[rules]` may change one
    /// (`youtube = *:YouTube;mpv:YouTube`) or turn it off (`youtube =`).
    public static let builtIn: [TitleRule] = [
        ("youtube", "YouTube"), ("netflix", "Netflix"), ("twitch", "Twitch"), ("tiktok", "TikTok"),
        ("instagram", "Instagram"), ("facebook", "Facebook"), ("reddit", "Reddit"),
        // X's pages are titled "… / X"; a bare "X" would match nearly every title.
        ("x", "/ X"),
    ].map { TitleRule(name: AppID($0.0), matches: [Match(app: Match.anyBrowser, title: $0.1)]) }
}

extension Array where Element == TitleRule {
    /// The virtual app the window of `app` titled `title` is, if a rule says so (the first rule in
    /// file order wins). Named after the matched text and the real app, with the real app's icon.
    public func virtualApp(for app: AppInfo, title: String) -> AppInfo? {
        // Asked at every focus: what does not depend on the rule is found once.
        let isBrowser = app.isWebBrowser
        var loweredTitle: String?
        for rule in self {
            for match in rule.matches where match.applies(to: app, isBrowser: isBrowser) {
                let lowered = loweredTitle ?? title.lowercased()
                loweredTitle = lowered
                if lowered.contains(match.title.lowercased()) {
                    return AppInfo(id: rule.name, name: "\(match.title) (\(app.name))", icon: app.icon)
                }
            }
        }
        return nil
    }

    /// Whether some rule could make a window of `app` another app, whatever its title.
    public func mayApply(to app: AppInfo) -> Bool {
        let isBrowser = app.isWebBrowser
        return contains { $0.matches.contains { $0.applies(to: app, isBrowser: isBrowser) } }
    }

    /// The app a window counts as: the virtual app of a matching rule, else the window's own app.
    public func app(for app: AppInfo, title: String) -> AppInfo {
        virtualApp(for: app, title: title) ?? app
    }
}

extension AppInfo {
    /// Whether the app's entry has the WebBrowser category: the windows `*` in a rule stands for.
    var isWebBrowser: Bool { categories.contains("WebBrowser") }
}
