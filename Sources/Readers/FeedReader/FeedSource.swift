import FoundationEssentials

/// One configured feed as the run-down shows it: what could be read, and what went wrong.
public struct FeedReport: Equatable, Sendable {
    public var url: String
    /// The feed fetched now, or the cached copy when it could not be; nil when there is neither.
    public var feed: Feed?
    /// Why the feed could not be fetched or read now, or what was left out reading it; nil when neither.
    public var problem: String?
    /// When the cached copy shown instead was fetched.
    public var copyFetched: Date?

    /// `news.example/rss: no answer within 5 s; the copy from 3 h ago`, the feed named by `label`;
    /// nil when the feed is fresh.
    public func note(label: String, now: Date) -> String? {
        guard let problem else { return nil }
        return "\(label): \(problem)" + (copyFetched.map { "; the copy from \(FeedSource.age(now.timeIntervalSince($0)))" } ?? "")
    }
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
                    return FeedReport(url: url, feed: feed, problem: feed.omitted)
                } catch {
                    problem = error.message
                }
            case .failure(let error):
                problem = error.message
            }
            guard let copy = cache.load(url), let feed = try? FeedParser.parse(copy.body) else {
                return FeedReport(url: url, problem: problem)
            }
            return FeedReport(url: url, feed: feed, problem: problem, copyFetched: copy.fetched)
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
