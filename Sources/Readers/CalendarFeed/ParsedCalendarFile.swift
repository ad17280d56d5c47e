import FoundationEssentials

/// A calendar file read and parsed, with everything wrong in its text named: NUL bytes (left out), lines not UTF-8,
/// BEGIN and END lines that do not pair up (repaired, see `ComponentNesting`) and lines libical
/// skipped. The work is linear in the file: one read, one pass for lines and nesting, one parse,
/// and lines looked up (by searching bytes onwards from the last one found) only for the problems
/// that will be shown.
enum ParsedCalendarFile {
    /// Reads the file at `path`, whose times are read for `window` (see `ICalDocument`).
    static func read(_ path: String, window: Range<Date>, problems: inout FileProblems) throws(CalendarProblemError) -> ICalDocument {
        let text = try CalendarText(contentsOf: path)
        for line in text.linesWithNul {
            problems.add(CalendarProblem(path: path, message: "a NUL byte, left out (the rest of the file is read)", line: line))
        }
        for line in text.linesNotUTF8 {
            problems.add(CalendarProblem(path: path, message: "not UTF-8; the bytes that are not are read as “�”", line: line))
        }
        for (line, length) in text.linesCut {
            problems.add(CalendarProblem(path: path, message: "a line of \(length) bytes, cut to its first \(CalendarText.longestLine) (the rest of the file is read)", line: line))
        }
        let nesting = ComponentNesting(text)
        for finding in nesting.findings {
            problems.add(CalendarProblem(path: path, message: finding.message, line: finding.line, uid: finding.uid))
        }
        let document: ICalDocument
        do { document = try ICalDocument(utf8: nesting.repaired ?? text.bytes, window: window) } catch {
            throw CalendarProblemError(CalendarProblem(path: path, message: error.message))
        }
        var searchFrom = 0
        for skipped in document.parseProblems where !losesNothing(skipped.message) {
            guard !problems.isFull else {
                problems.addUnshown()
                continue
            }
            let found = quotedText(of: skipped.message).flatMap { text.firstLine(containing: $0, from: searchFrom) }
            if let found { searchFrom = found.end }
            problems.add(CalendarProblem(path: path, message: "skipped: \(skipped.message)", line: found?.line, uid: skipped.uid))
        }
        return document
    }

    /// Whether libical's message is about an empty property whose absence changes no time: Google
    /// and Exchange write an empty DESCRIPTION and LOCATION into nearly every event, and naming
    /// each would bury the problems that matter. An empty time or rule (DTEND, RRULE…) is named.
    static func losesNothing(_ message: String) -> Bool {
        let prefix = "No value for "
        guard message.hasPrefix(prefix) else { return false }
        let property = message.dropFirst(prefix.count).prefix { $0 != " " }
        return !timeProperties.contains(String(property))
    }

    private static let timeProperties: Set<String> = ["DTSTART", "DTEND", "DUE", "DURATION", "RECURRENCE-ID", "RRULE", "RDATE",
                                                      "EXDATE", "EXRULE", "UID", "TZID", "SEQUENCE", "STATUS"]

    /// The text libical quotes after the last colon of its message (libical reports no line numbers),
    /// when it is long enough to find its line by; its first 200 bytes at most, since the search
    /// compares the text at each offset (a quoted 64 KB line made it quadratic).
    static func quotedText(of message: String) -> String? {
        guard message.contains(":"), let last = message.split(separator: ":").last else { return nil }
        let quoted = last.drop(while: { $0 == " " }).utf8.prefix(200)
        return quoted.count >= 3 ? String(decoding: quoted, as: UTF8.self) : nil
    }
}
