import Foundation

/// Feeds as real sites write them.
enum FeedFixtures {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <channel>
            <title>Morning  News</title>
            <link>https://news.example/</link>
            <item><title>Rivers &amp; lakes are clean again</title><link>https://news.example/1</link>
              <pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>
            <item><title><![CDATA[Library <b>opens</b> late]]></title><link>https://news.example/2</link>
              <pubDate>Mon, 30 Nov 2026 07:30:00 +0100</pubDate></item>
            <item><title>Oldest story</title><pubDate>Sun, 29 Nov 2026 20:00:00 EST</pubDate></item>
            <item><title>Train timetable changes</title><dc:date>2026-11-30T04:00:00Z</dc:date></item>
            <item><title>Undated note</title></item>
          </channel>
        </rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title type="text">Science Weekly</title>
          <entry><title>A comet visits</title><link href="https://science.example/comet"/>
            <updated>2026-11-29T10:00:00+01:00</updated></entry>
          <entry><title>Bees can count</title><link rel="alternate" href="https://science.example/bees"/>
            <published>2026-11-30T06:15:30.25Z</published><updated>2026-11-30T08:00:00Z</updated></entry>
        </feed>
        """

    static let podcast = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0">
          <channel>
            <title>Slow Radio</title>
            <item><title>Episode 41: Rain</title><enclosure url="https://radio.example/41.mp3" type="audio/mpeg" length="1"/>
              <pubDate>Sat, 28 Nov 2026 06:00:00 +0000</pubDate></item>
            <item><title>Episode 42: Wind</title><enclosure url="https://radio.example/42.mp3" type="audio/mpeg" length="1"/>
              <pubDate>Sun, 29 Nov 2026 06:00:00 +0000</pubDate></item>
            <item><title>Show notes</title><pubDate>Mon, 30 Nov 2026 06:00:00 +0000</pubDate></item>
          </channel>
        </rss>
        """

    static let malformed = """
        <?xml version="1.0"?>
        <rss version="2.0">
          <channel><title>Broken</title>
            <item><title>Unclosed</item>
          </channel>
        </rss>
        """
}
