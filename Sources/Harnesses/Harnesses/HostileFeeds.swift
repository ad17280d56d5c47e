/// Feeds made to hurt a reader, written by the tests themselves (issue 19).
public enum HostileFeeds {
    /// A 100 KB internal entity referenced 20,000 times in one enclosure's URL (about 200 KB of
    /// feed): every `xmlGetProp` expanded it again, 2 GB of text, past 400 s and 800 MB.
    public static func entityInAttribute(entityKB: Int = 100, references: Int = 20_000) -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE rss [<!ENTITY big "\(String(repeating: "x", count: entityKB * 1024))">]>
        <rss version="2.0"><channel><title>Entities</title>
        <item><title>Episode</title><enclosure type="audio/mpeg" url="\(String(repeating: "&big;", count: references))"/></item>
        </channel></rss>
        """
    }

    /// `count` empty elements in one item: a tree far larger than any feed's.
    public static func manyElements(_ count: Int) -> String {
        "<rss version=\"2.0\"><channel><title>Wide</title><item><title>Wide item</title>"
            + String(repeating: "<x/>", count: count) + "</item></channel></rss>"
    }

    /// `count` attributes on one element: libxml2 2.9 checks each against all before it.
    public static func manyAttributes(_ count: Int) -> String {
        "<rss version=\"2.0\"><channel><title>Crowded</title><item><title>t</title><x "
            + (0..<count).map { "a\($0)=\"\"" }.joined(separator: " ") + "/></item></channel></rss>"
    }
}
