/// An app's identity: its desktop entry id (`firefox` for `firefox.desktop`) when one matches
/// the window, else its lower-cased WM_CLASS class.
public struct AppID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
    public static func < (a: AppID, b: AppID) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// What is known of an app: from its desktop entry where one matched.
public struct AppInfo: Hashable, Sendable, Codable {
    public var id: AppID
    public var name: String
    /// Icon name or absolute path, as in the desktop entry's `Icon=`.
    public var icon: String?
    /// The desktop entry's `Categories=`.
    public var categories: [String]

    public init(id: AppID, name: String, icon: String? = nil, categories: [String] = []) {
        self.id = id
        self.name = name
        self.icon = icon
        self.categories = categories
    }
}
