import FoundationEssentials

/// What the modes show the user: the config file's content sections. Every list is the user's own;
/// empty lists fall back to kind defaults where the study gives one.
///
///     [breaks]
///     activities = Stretch your back and shoulders;Walk to a window and look far away
///
///     [productivity]
///     # a todo.txt file, or one item a line
///     todo = ~/todo.txt
///
///     [social]
///     # desktop-entry ids
///     quick-nav = org.gnome.Fractal;org.gnome.Calls;org.gnome.Maps
///
///     [wind-down]
///     alternatives = org.gnome.Books;gnome-sudoku;https://www.youtube.com/@3blue1brown
///
///     [sleep]
///     music = https://example.org/sleep.m3u
///
///     [rundown]
///     feeds = https://example.org/news.rss;https://example.org/podcast.xml
///     feed-timeout = 5s
public struct ModeContentSettings: Equatable, Sendable {
    /// The wellness list: one is suggested at each Productivity break, in turn.
    public var breakActivities: [String] = ModeContentSettings.defaultBreakActivities
    /// A todo.txt file or a plain list, `~` expanded by the reader.
    public var todoPath: String?
    /// Social's quick-nav apps, by desktop-entry id; empty: the installed communication and maps apps.
    public var quickNav: [String] = []
    /// Wind Down's calm alternatives: desktop-entry ids or links (`scheme://…`, `/path`).
    public var alternatives: [String] = []
    /// Sleep's music: a playlist, stream or file.
    public var sleepMusic: String?
    /// The run-down's feeds (RSS or Atom; `https://`, `http://`, `file://`).
    public var feeds: [String] = []
    public var feedTimeout: TimeInterval = 5

    public init() {}

    public static let defaultBreakActivities = [
        "Stand up and stretch your back and shoulders",
        "Walk to a window and look at something far away",
        "Fetch a glass of water",
        "Take a short walk, even just around the room",
        "Close your eyes and take ten slow breaths",
    ]

    public static let sections = ["breaks", "productivity", "social", "wind-down", "sleep", "rundown"]
}

extension ModeContentSettings {
    /// Reads the content sections of a keyfile; every problem names its line.
    public init(_ file: KeyFile, path: String) throws {
        self.init()
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(path: path, line: line, message: message) }
        func only(_ section: String, _ keys: [String], _ body: (String, String, Int) throws -> Void) throws {
            for (key, value, line) in file.entries(in: section) {
                guard keys.contains(key) else {
                    throw fail(line, "unknown key `\(key)` in [\(section)] (known: \(keys.joined(separator: ", ")))")
                }
                try body(key, value, line)
            }
        }
        try only("breaks", ["activities"]) { _, value, _ in breakActivities = KeyFileList.split(value) }
        try only("productivity", ["todo"]) { _, value, _ in todoPath = value.isEmpty ? nil : value }
        try only("social", ["quick-nav"]) { _, value, _ in quickNav = KeyFileList.split(value) }
        try only("wind-down", ["alternatives"]) { _, value, _ in alternatives = KeyFileList.split(value) }
        try only("sleep", ["music"]) { _, value, _ in sleepMusic = value.isEmpty ? nil : value }
        try only("rundown", ["feeds", "feed-timeout"]) { key, value, line in
            if key == "feeds" { feeds = KeyFileList.split(value); return }
            do { feedTimeout = try DurationBounds.parse(value, for: key, within: 1...60) } catch let error as DurationBoundsError { throw fail(line, error.message) }
        }
    }
}
