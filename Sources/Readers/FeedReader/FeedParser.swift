import FoundationEssentials
import ScreenTimeCore

/// Why a feed could not be read, in words for the run-down's note.
public struct FeedParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// RSS 2.0 (and 0.9x, RSS 1.0) and Atom, parsed with libxml2 into a `Feed`. Titles are kept as
/// plain lines (`PlainLine`), never interpreted; items without a title are left out.
public enum FeedParser {
    /// Items read per feed: the run-down shows a few of the newest.
    public static let itemLimit = 200
    static let atomNamespace = "http://www.w3.org/2005/Atom"

    public static func parse(_ data: [UInt8]) throws(FeedParseError) -> Feed {
        let document: XMLDocument
        do { document = try XMLDocumentReader.parse(data) } catch {
            throw FeedParseError(message: "malformed XML" + (error.line.map { " at line \($0)" } ?? "") + ": " + error.message)
        }
        var feed = try feed(document.root)
        feed.omitted = document.omitted
        return feed
    }

    private static func feed(_ root: XMLElement) throws(FeedParseError) -> Feed {
        switch root.name {
        case "rss":
            guard let channel = root.child("channel") else { throw FeedParseError(message: "an RSS feed without a channel") }
            return Feed(title: text(channel.child("title")), items: channel.children("item").prefix(itemLimit).map(rssItem).filter(hasTitle))
        case "RDF":
            return Feed(title: text(root.child("channel")?.child("title")), items: root.children("item").prefix(itemLimit).map(rssItem).filter(hasTitle))
        case "feed" where root.namespace == atomNamespace || root.namespace == nil:
            return Feed(title: text(root.child("title")), items: root.children("entry").prefix(itemLimit).map(atomEntry).filter(hasTitle))
        default:
            throw FeedParseError(message: "not an RSS or Atom feed (the document is <\(root.name)>)")
        }
    }

    private static func hasTitle(_ item: FeedItem) -> Bool { !item.title.isEmpty }

    private static func rssItem(_ item: XMLElement) -> FeedItem {
        let enclosure = item.children("enclosure").first { isMedia($0.attributes["type"]) }?.attributes["url"]
        let date = item.child("pubDate").flatMap { FeedDate.rfc822($0.text) } ?? item.child("date").flatMap { FeedDate.rfc3339($0.text) }
        return FeedItem(title: text(item.child("title")), link: nonEmpty(item.child("link")?.text), published: date, enclosure: enclosure)
    }

    private static func atomEntry(_ entry: XMLElement) -> FeedItem {
        let links = entry.children("link")
        let link = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" }?.attributes["href"]
        let enclosure = links.first { $0.attributes["rel"] == "enclosure" && isMedia($0.attributes["type"]) }?.attributes["href"]
        let date = (entry.child("published") ?? entry.child("updated")).flatMap { FeedDate.rfc3339($0.text) }
        return FeedItem(title: text(entry.child("title")), link: link, published: date, enclosure: enclosure)
    }

    /// Audio or video, or a type not given (many podcasts leave it out).
    private static func isMedia(_ type: String?) -> Bool {
        guard let type, !type.isEmpty else { return true }
        return type.hasPrefix("audio/") || type.hasPrefix("video/")
    }

    /// An element's text as one plain line; "" when there is none.
    static func text(_ element: XMLElement?) -> String { PlainLine.of(element?.text ?? "") }

    private static func nonEmpty(_ text: String?) -> String? {
        let trimmed = text.map { String($0.filter { !$0.isWhitespace }) }
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}
