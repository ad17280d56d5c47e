import FoundationEssentials

/// One configured feed as the run-down shows it: what could be read, and what went wrong.
public struct FeedReport: Equatable, Sendable {
    public var url: String
    /// The feed fetched now, or the cached copy when it could not be; nil when there is neither.
    public var feed: Feed?
    /// Why the feed is missing or old ("no answer within 5 s; the copy from 3 h ago"); nil when fresh.
    public var note: String?
}

/// Fetches every feed at once, parses each, keeps the good ones in the cache and falls back to
/// the cache for the others. Run by short-lived processes (the CLI, the card), never the agent.
public enum FeedSource {
    public static func read(_ urls: [String], timeout: TimeInterval, cache: FeedCache, now: Date) -> [FeedReport] {
        zip(urls, FeedFetcher.fetch(urls, timeout: timeout)).map { url, fetched in
            let problem: String
            switch fetched {
            case .success(let body):
                do throws(FeedParseError) {
                    let feed = try FeedParser.parse(body)
                    cache.store(body, for: url, fetched: now)
                    return FeedReport(url: url, feed: feed, note: nil)
                } catch {
                    problem = error.message
                }
            case .failure(let error):
                problem = error.message
            }
            guard let copy = cache.load(url), let feed = try? FeedParser.parse(copy.body) else {
                return FeedReport(url: url, feed: nil, note: "\(url): \(problem)")
            }
            return FeedReport(url: url, feed: feed, note: "\(url): \(problem); the copy from \(age(now.timeIntervalSince(copy.fetched)))")
        }
    }

    /// `just now`, `12 min ago`, `3 h ago`, `2 days ago`.
    static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "just now"
        case ..<3600: "\(Int(seconds / 60)) min ago"
        case ..<(48 * 3600): "\(Int(seconds / 3600)) h ago"
        default: "\(Int(seconds / 86_400)) days ago"
        }
    }
}
