/// A generated calendar export of a given size, shaped like a real one (a VTIMEZONE, events in that
/// zone with long folded descriptions, a weekly series every tenth event) with damaged lines libical
/// warns about in every `damagedEvery`-th event: a line with no property name, and a CREATED
/// date-time that does not parse. The damage costs no event its times, so every event stays readable.
/// For the calendar benchmark and the reader's tests.
public struct DamagedCalendarExport {
    public private(set) var text = ""
    /// Events written, of which `modeEvents` name a mode (the others are meetings).
    public private(set) var events = 0
    public private(set) var modeEvents = 0
    /// Occurrences of the events naming a mode, all within March and April 2026 (UTC).
    public private(set) var modeOccurrences = 0
    /// Lines libical skips.
    public private(set) var damagedLines = 0
    /// Occurrences of each weekly series.
    public static let seriesLength = 4

    public init(approximateBytes: Int, damagedEvery: Int) {
        text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//screentime//damaged export//EN\r\n" + Self.berlin
        let description = "DESCRIPTION:" + String(repeating: "Agenda and notes for the meeting, kept long as exports keep them. ", count: 3)
        let folded = stride(from: 0, to: description.count, by: 74).map { offset -> String in
            let start = description.index(description.startIndex, offsetBy: offset)
            let end = description.index(start, offsetBy: 74, limitedBy: description.endIndex) ?? description.endIndex
            return (offset == 0 ? "" : " ") + description[start..<end]
        }.joined(separator: "\r\n")
        let modes = ["Productivity: report", "Wind Down", "Social lunch", "Sleep"]
        while text.utf8.count < approximateBytes {
            events += 1
            let day = 2 + events % 27, hour = 8 + events % 10
            let names = events % 3 != 0
            let summary = names ? "\(modes[events % modes.count]) \(events)" : "Meeting \(events)"
            let recurring = events % 10 == 0
            var lines = ["BEGIN:VEVENT", "UID:event-\(events)@damaged.example", "DTSTAMP:20260301T000000Z",
                         "DTSTART;TZID=Europe/Berlin:202603\(Self.twoDigits(day))T\(Self.twoDigits(hour))0000",
                         "DTEND;TZID=Europe/Berlin:202603\(Self.twoDigits(day))T\(Self.twoDigits(hour))4500",
                         "SUMMARY:\(summary)", folded]
            if recurring { lines.append("RRULE:FREQ=WEEKLY;COUNT=\(Self.seriesLength)") }
            if events % damagedEvery == 0 {
                lines += ["this line of event \(events) lost its property name", "CREATED:not a time \(events)"]
                damagedLines += 2
            }
            lines.append("END:VEVENT")
            text += lines.joined(separator: "\r\n") + "\r\n"
            if names {
                modeEvents += 1
                modeOccurrences += recurring ? Self.seriesLength : 1
            }
        }
        text += "END:VCALENDAR\r\n"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static let berlin = [
        "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE",
    ].joined(separator: "\r\n") + "\r\n"
}
