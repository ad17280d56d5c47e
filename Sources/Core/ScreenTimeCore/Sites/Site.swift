/// A web site as screentime counts it: its registrable domain (`youtube.com` for
/// `www.youtube.com`, `m.youtube.com` and `youtu.be`; `bbc.co.uk` for `news.bbc.co.uk`), the one
/// thing the browser's extension tells about a tab. Made from an untrusted host name: anything
/// that is not one gives an error naming it, never a trap.
public struct Site: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Lower-case ASCII (IDNs in their `xn--` form), at most 253 bytes.
    public let domain: String

    public var description: String { domain }
    public static func < (a: Site, b: Site) -> Bool { a.domain < b.domain }

    /// The longest host name DNS allows, and the longest label.
    static let longestHost = 253
    static let longestLabel = 63

    /// The site of `host` (a URL's host, as the extension's `URL.hostname` gives it): lower-cased,
    /// a trailing dot and a port dropped, folded to its registrable domain, then through
    /// `SiteAliases`. An IP address or a single label (`localhost`) is its own site.
    public init(host: String) throws(SiteError) {
        var name = host.lowercased()
        if name.hasPrefix("[") { throw SiteError(host: host, reason: "an IPv6 address is no site") }
        if let colon = name.firstIndex(of: ":") {
            let port = name[name.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isSiteDigit) else { throw SiteError(host: host, reason: "it has a malformed port") }
            name = String(name[..<colon])
        }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { throw SiteError(host: host, reason: "it is empty") }
        guard name.utf8.count <= Self.longestHost else { throw SiteError(host: host, reason: "it is longer than \(Self.longestHost) bytes") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { throw SiteError(host: host, reason: "it has an empty label") }
            guard label.utf8.count <= Self.longestLabel else { throw SiteError(host: host, reason: "a label is longer than \(Self.longestLabel) bytes") }
            guard label.utf8.allSatisfy(Self.isHostByte) else {
                throw SiteError(host: host, reason: "only letters, digits, `-` and `_` may be in a host name (IDNs in their xn-- form)")
            }
            guard label.first != "-", label.last != "-" else { throw SiteError(host: host, reason: "a label begins or ends with `-`") }
        }
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isSiteDigit) }) {
            guard labels.allSatisfy({ Int($0).map { $0 <= 255 } ?? false }) else { throw SiteError(host: host, reason: "it is no IPv4 address") }
            domain = name
            return
        }
        if labels.last?.allSatisfy(\.isSiteDigit) == true { throw SiteError(host: host, reason: "its top-level domain is a number") }
        let registrable = PublicSuffixes.registrableDomain(of: labels.map(String.init))
        domain = SiteAliases.canonical[registrable] ?? registrable
    }

    /// The site of a stored or typed name (`site add DOMAIN`, an app id): nil when it is no
    /// site's name as `init(host:)` would make it.
    public init?(domain: String) {
        guard let site = try? Site(host: domain), site.domain == domain else { return nil }
        self = site
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2d || byte == 0x5f
    }
}

/// Why a host name is no site: shown with the host (shortened, control characters escaped).
public struct SiteError: Error, Equatable, CustomStringConvertible {
    public var host: String
    public var reason: String

    public var description: String { "\(StoredName.shown(host)) is no site: \(reason)" }
}

/// Sites known under two names, counted as one.
public enum SiteAliases {
    /// Registrable domain → the site it is counted as.
    public static let canonical: [String: String] = [
        "youtu.be": "youtube.com", "youtube-nocookie.com": "youtube.com",
        "twitter.com": "x.com", "t.co": "x.com",
        "fb.com": "facebook.com", "fb.watch": "facebook.com", "messenger.com": "facebook.com",
        "redd.it": "reddit.com", "instagr.am": "instagram.com",
        "amzn.to": "amazon.com", "a.co": "amazon.com",
    ]
}

extension Character {
    fileprivate var isSiteDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
