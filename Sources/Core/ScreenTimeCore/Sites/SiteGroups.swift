/// The built-in kinds of site: leisure the user may want to limit, as the title rules' sites were
/// (content apps). Each counts in the app group `content`, so a site in one is limited by the
/// default limit and held back in Productivity, Wind Down and Sleep while the browser and its
/// other sites stay. A site in none counts as the browser does. `[groups]` edits a site like an app
/// (`group add content example.org`, `group rm content news.example`).
public enum SiteGroup: String, CaseIterable, Sendable {
    case content
    case social
    case shopping
    case news

    /// The sites of each kind (registrable domains, as `Site` makes them).
    public var sites: Set<String> {
        switch self {
        case .content:
            ["youtube.com", "netflix.com", "twitch.tv", "tiktok.com", "vimeo.com", "dailymotion.com", "disneyplus.com",
             "primevideo.com", "hulu.com", "max.com", "hbomax.com", "crunchyroll.com", "spotify.com", "soundcloud.com",
             "9gag.com", "imgur.com", "kick.com", "paramountplus.com", "peacocktv.com", "bilibili.com", "steampowered.com",
             "roblox.com", "chess.com", "lichess.org", "itch.io", "pornhub.com", "xvideos.com"]
        case .social:
            ["facebook.com", "instagram.com", "x.com", "reddit.com", "linkedin.com", "pinterest.com", "snapchat.com",
             "tumblr.com", "threads.net", "bsky.app", "mastodon.social", "vk.com", "weibo.com", "quora.com",
             "discord.com", "telegram.org", "ycombinator.com"]
        case .shopping:
            ["amazon.com", "amazon.co.uk", "amazon.de", "amazon.fr", "amazon.it", "amazon.es", "amazon.ca", "amazon.co.jp",
             "ebay.com", "ebay.co.uk", "ebay.de", "aliexpress.com", "etsy.com", "temu.com", "shein.com", "walmart.com",
             "target.com", "bestbuy.com", "zalando.de", "wish.com", "allegro.pl", "rakuten.co.jp", "mercadolibre.com"]
        case .news:
            ["nytimes.com", "bbc.co.uk", "bbc.com", "cnn.com", "theguardian.com", "washingtonpost.com", "foxnews.com",
             "reuters.com", "apnews.com", "bloomberg.com", "wsj.com", "nbcnews.com", "dailymail.co.uk",
             "spiegel.de", "bild.de", "lemonde.fr", "elpais.com", "corriere.it", "huffpost.com", "buzzfeed.com",
             "nypost.com", "usatoday.com", "aljazeera.com"]
        }
    }

    /// The kind of a site, if it is one of the built-in lists'.
    public static func of(_ site: Site) -> SiteGroup? { byDomain[site.domain] }

    private static let byDomain: [String: SiteGroup] = {
        var map: [String: SiteGroup] = [:]
        for group in allCases { for domain in group.sites { map[domain] = map[domain] ?? group } }
        return map
    }()
}
