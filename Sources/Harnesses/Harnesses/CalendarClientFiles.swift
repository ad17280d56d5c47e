import Foundation

/// Calendar files as calendar servers, apps and sync tools write them (CRLF lines, PRODID, DTSTAMP,
/// a VTIMEZONE beside the events that use it), for the tests of reading calendar folders and of
/// the agent picking up their changes.
public enum CalendarClientFiles {
    /// Europe/Berlin as Nextcloud, Thunderbird and Evolution write it.
    public static let berlin = """
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        END:VTIMEZONE
        """

    /// A VEVENT. `start` and `end` are property values with their parameters, e.g.
    /// `;TZID=Europe/Berlin:20261201T090000` or `:20261201T080000Z`.
    public static func event(uid: String, summary: String, start: String, end: String, rrule: String? = nil,
                             recurrenceID: String? = nil, categories: String? = nil) -> String {
        var lines = ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T120000Z", "CREATED:20261101T120000Z",
                     "LAST-MODIFIED:20261101T120000Z", "SEQUENCE:0"]
        if let recurrenceID { lines.append("RECURRENCE-ID\(recurrenceID)") }
        lines += ["DTSTART\(start)", "DTEND\(end)", "SUMMARY:\(summary)", "STATUS:CONFIRMED"]
        if let rrule { lines.append("RRULE:\(rrule)") }
        if let categories { lines.append("CATEGORIES:\(categories)") }
        lines.append("END:VEVENT")
        return lines.joined(separator: "\n")
    }

    /// A VCALENDAR of `components`, with CRLF line ends.
    public static func calendar(_ components: [String], prodID: String = "-//IDN nextcloud.com//Calendar app 4.6.4//EN") -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodID)", "CALSCALE:GREGORIAN"] + components + ["END:VCALENDAR", ""])
            .joined(separator: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// `:yyyyMMddTHHmmssZ` for a property value in UTC.
    public static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return ":" + formatter.string(from: date)
    }

    /// A calendar of one event in UTC, as a CalDAV server stores each object.
    public static func single(uid: String, summary: String, from start: Date, to end: Date) -> String {
        calendar([event(uid: uid, summary: summary, start: utc(start), end: utc(end))])
    }

    /// Writes `text` at `file`, making its folder.
    public static func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: false, encoding: .utf8)
    }

    /// How vdirsyncer and khal add an item (python-atomicwrites): a temporary file in the same
    /// folder, hard-linked to the item's name (which must not exist yet), then unlinked.
    public static func addAsVdirsyncerDoes(_ text: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent("tmp\(UUID().uuidString.prefix(8).lowercased())")
        try write(text, to: temporary)
        guard link(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: file.path]) }
        try FileManager.default.removeItem(at: temporary)
    }

    /// How sync tools and editors replace an item: a hidden temporary file renamed over it.
    public static func replaceByRenaming(_ text: String, at file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString.prefix(6)).tmp")
        try write(text, to: temporary)
        guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
    }
}
