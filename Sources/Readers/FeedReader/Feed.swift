import FoundationEssentials

/// A feed as the run-down uses it: its title and items, newest first where they are dated.
public struct Feed: Equatable, Sendable {
    public var title: String
    public var items: [FeedItem]
    /// What was left out reading the feed, in words for the run-down's note; nil when nothing was.
    public var omitted: String?

    public init(title: String, items: [FeedItem], omitted: String? = nil) {
        self.title = title
        self.items = items
        self.omitted = omitted
    }

    /// A podcast: most items carry an audio or video enclosure.
    public var isPodcast: Bool {
        !items.isEmpty && items.filter { $0.enclosure != nil }.count * 2 > items.count
    }

    /// The `count` newest items (dated ones newest first, then undated ones in the feed's order);
    /// for a podcast only episodes with an enclosure.
    public func newest(_ count: Int) -> [FeedItem] {
        let candidates = isPodcast ? items.filter { $0.enclosure != nil } : items
        let ordered = candidates.enumerated().sorted { a, b in
            switch (a.element.published, b.element.published) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.offset < b.offset
            }
        }
        return ordered.prefix(count).map(\.element)
    }
}

public struct FeedItem: Equatable, Sendable {
    public var title: String
    public var link: String?
    public var published: Date?
    /// An audio or video file (RSS `<enclosure>`, Atom `rel="enclosure"`).
    public var enclosure: String?

    public init(title: String, link: String? = nil, published: Date? = nil, enclosure: String? = nil) {
        self.title = title
        self.link = link
        self.published = published
        self.enclosure = enclosure
    }
}
