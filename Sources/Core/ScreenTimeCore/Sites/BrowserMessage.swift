import FoundationEssentials

/// What the extension tells the native host (JSON, one object a message). Only the host name of
/// the tab crosses, and the host turns it into a `Site` before anything leaves the browser's
/// child: no URL, no title.
public enum BrowserMessage: Equatable, Sendable {
    /// The extension started (or reconnected): which browser it runs in.
    case hello(browser: String)
    /// The browser's focused window now shows `tab`: its site (nil for a page of no site, such as
    /// the new-tab page, or when no window of the browser has focus), whether it plays sound,
    /// whether the window is private.
    case tab(BrowserTab)
    /// The user's answer on the in-tab card.
    case choice(tab: Int, site: Site, choice: String)

    /// `{"type": "tab", "focused": true, "host": "www.youtube.com", "tab": 7, "audible": false,
    /// "incognito": false}`, `{"type": "choice", "tab": 7, "site": "youtube.com", "choice": "continue"}`,
    /// `{"type": "hello", "browser": "chromium"}`. Anything else is an error saying what is wrong.
    public init(json bytes: [UInt8]) throws(BrowserMessageError) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw BrowserMessageError("the message is not UTF-8") }
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: Data(bytes)) } catch {
            throw BrowserMessageError("the message is not a JSON object with the expected fields (\(Self.brief(error)))")
        }
        switch fields.type {
        case "hello":
            let browser = fields.browser ?? "browser"
            guard (1...32).contains(browser.utf8.count), browser.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else {
                throw BrowserMessageError("`browser` must be a short printable name")
            }
            self = .hello(browser: browser)
        case "tab":
            let focused = fields.focused ?? true
            let tab = fields.tab ?? -1
            var site: Site?
            if focused, !(fields.incognito ?? false), let host = fields.host, !host.isEmpty {
                do { site = try Site(host: host) } catch { throw BrowserMessageError("`host`: \(error)") }
            }
            self = .tab(BrowserTab(focused: focused, tab: tab, site: site, audible: focused && (fields.audible ?? false),
                                   incognito: focused && (fields.incognito ?? false)))
        case "choice":
            guard let tab = fields.tab else { throw BrowserMessageError("a choice needs its `tab`") }
            guard let name = fields.site, let site = Site(domain: name) else { throw BrowserMessageError("a choice needs the `site` it was shown for") }
            guard let choice = fields.choice, BrowserTab.choices.contains(choice) else {
                throw BrowserMessageError("`choice` must be one of \(BrowserTab.choices.sorted().joined(separator: ", "))")
            }
            self = .choice(tab: tab, site: site, choice: choice)
        default:
            throw BrowserMessageError("unknown message type \(StoredName.shown(fields.type))")
        }
    }

    private struct Fields: Decodable {
        var type: String
        var browser: String?
        var focused: Bool?
        var host: String?
        var tab: Int?
        var audible: Bool?
        var incognito: Bool?
        var site: String?
        var choice: String?
    }

    private static func brief(_ error: Error) -> String {
        if case DecodingError.keyNotFound(let key, _) = error { return "no `\(key.stringValue)`" }
        if case DecodingError.typeMismatch(_, let context) = error { return "wrong type at `\(context.codingPath.map(\.stringValue).joined(separator: "."))`" }
        return "not valid JSON"
    }
}

/// The active tab of a browser's focused window, as the host tells the agent.
public struct BrowserTab: Equatable, Sendable {
    public var focused: Bool
    public var tab: Int
    public var site: Site?
    public var audible: Bool
    public var incognito: Bool

    public init(focused: Bool, tab: Int, site: Site?, audible: Bool, incognito: Bool) {
        self.focused = focused
        self.tab = tab
        self.site = site
        self.audible = audible
        self.incognito = incognito
    }

    /// The answers the in-tab card can give: the way through, closing the tab, or the mode's own
    /// choices (Go to bed, Stay up, Start the day, ending the mode early).
    public static let choices: Set<String> = [CardChoice.continue, closeTab, CardChoice.bedtime, CardChoice.stayUp,
                                              CardChoice.startDay, CardChoice.leaveMode]
    public static let closeTab = "close-tab"
}

/// A message from the browser the host refused, and why (sent back as `{"type": "error"}`).
public struct BrowserMessageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
