/// Whether a text's BEGIN and END lines pair up, and the text repaired when they do not.
///
/// libical pairs an END with whatever is open, whatever its name, and gives up on a component left
/// open at the end: one missing END:VEVENT made it report "no BEGIN:VCALENDAR" for a file that
/// begins with one, and a stray END dropped the events after it without a word. So the lines are
/// paired here first, in one pass: an END that closes nothing is left out, a component left open is
/// ended where the next one that cannot be inside it begins (or where an enclosing END comes, or at
/// the end of the file), and each repair is named with its line and, inside an event, the UID.
struct ComponentNesting {
    struct Finding: Equatable {
        var line: Int
        var message: String
        var uid: String?
    }

    /// What was wrong, in the order of the file.
    private(set) var findings: [Finding] = []
    /// The text to parse when the nesting needed a repair; nil when the file's own text is sound.
    private(set) var repaired: [UInt8]?

    private struct Open {
        var name: String
        var line: Int
        var uid: String?
    }

    private enum Edit {
        /// END lines to write before the line (or at the end of the file, after the last line).
        case endBefore(line: Int, names: [String])
        case leaveOut(line: Int)
    }

    init(_ text: CalendarText) {
        var stack: [Open] = []
        var edits: [Edit] = []
        var lastCalendarEnd: Int?
        for line in 1..<(text.lineCount + 1) {
            guard let (keyword, value) = Self.keyword(ofLine: line, in: text) else { continue }
            switch keyword {
            case "UID":
                if let top = stack.indices.last, stack[top].uid == nil { stack[top].uid = value }
            case "BEGIN":
                var closed: [Open] = []
                while let top = stack.last, stack.count >= Self.deepest || !Self.component(value, canBeInside: top.name) {
                    closed.append(stack.removeLast())
                }
                for open in closed {
                    findings.append(Finding(line: open.line, message: "BEGIN:\(open.name) has no END:\(open.name) before BEGIN:\(value) on line \(line); read as ended there", uid: open.uid))
                }
                if !closed.isEmpty { edits.append(.endBefore(line: line, names: closed.map(\.name))) }
                if stack.isEmpty, value != "VCALENDAR", let end = lastCalendarEnd {
                    findings.append(Finding(line: line, message: "BEGIN:\(value) comes after END:VCALENDAR on line \(end), outside the calendar; read all the same"))
                }
                stack.append(Open(name: value, line: line))
            case "END":
                guard let match = stack.lastIndex(where: { $0.name == value }) else {
                    let open = stack.last.map { "; BEGIN:\($0.name) on line \($0.line) is still open" } ?? ""
                    findings.append(Finding(line: line, message: "END:\(value) ends no BEGIN:\(value)\(open); the line is left out", uid: stack.last?.uid))
                    edits.append(.leaveOut(line: line))
                    continue
                }
                let closed = stack[(match + 1)...].reversed()
                for open in closed {
                    findings.append(Finding(line: open.line, message: "BEGIN:\(open.name) has no END:\(open.name) before END:\(value) on line \(line); read as ended there", uid: open.uid))
                }
                if !closed.isEmpty { edits.append(.endBefore(line: line, names: closed.map(\.name))) }
                stack.removeSubrange(match...)
                if value == "VCALENDAR", stack.isEmpty { lastCalendarEnd = line }
            default:
                break
            }
        }
        for open in stack.reversed() {
            findings.append(Finding(line: open.line, message: "BEGIN:\(open.name) has no END:\(open.name) before the end of the file; read as ended there", uid: open.uid))
        }
        if !stack.isEmpty { edits.append(.endBefore(line: text.lineCount + 1, names: stack.reversed().map(\.name))) }
        if !edits.isEmpty { repaired = Self.apply(edits, to: text) }
    }

    /// Components open at once at most: real files nest four deep (VCALENDAR, VTIMEZONE, STANDARD;
    /// VCALENDAR, VEVENT, VALARM); a deeper BEGIN ends the innermost first, so that a damaged file's
    /// END lines, each looked up in the open components, cost a bounded time.
    private static let deepest = 8

    /// Components that only a VCALENDAR holds (RFC 5545 §3.6, RFC 7953).
    private static let calendarComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]
    /// Components that hold no other.
    private static let innermostComponents: Set<String> = ["VALARM", "STANDARD", "DAYLIGHT", "AVAILABLE"]

    private static func component(_ child: String, canBeInside parent: String) -> Bool {
        if child == "VCALENDAR" { return false }
        if calendarComponents.contains(child) { return parent == "VCALENDAR" }
        return child != parent && !innermostComponents.contains(parent)
    }

    /// BEGIN, END or UID with the line's value (names upper-cased), for lines that are one of those.
    private static func keyword(ofLine line: Int, in text: CalendarText) -> (String, String)? {
        guard let keyword = ["BEGIN", "END", "UID"].first(where: { text.line(line, startsWithName: $0) }) else { return nil }
        let content = text.text(ofLine: line)
        guard let colon = content.firstIndex(of: ":") else { return nil }
        // Trimmed as a Substring: through `reversed()` each line's value was rebuilt character by
        // character, most of the time of a folder of one-event files.
        var value = content[content.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        return (keyword, keyword == "UID" ? String(value) : value.uppercased())
    }

    /// The text with the edits made: END lines written where components were left open, stray ENDs left out.
    private static func apply(_ edits: [Edit], to text: CalendarText) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.bytes.count + 64)
        var copied = 0
        func copy(through offset: Int) {
            output += text.bytes[copied..<offset]
            copied = offset
        }
        func offset(ofLine line: Int) -> Int { line <= text.lineStarts.count ? text.lineStarts[line - 1] : text.bytes.count }
        for edit in edits {
            switch edit {
            case .endBefore(let line, let names):
                copy(through: offset(ofLine: line))
                if let last = output.last, last != UInt8(ascii: "\n"), last != UInt8(ascii: "\r") { output += Array("\r\n".utf8) }
                for name in names { output += Array("END:\(name)\r\n".utf8) }
            case .leaveOut(let line):
                copy(through: offset(ofLine: line))
                copied = offset(ofLine: line + 1)
            }
        }
        copy(through: text.bytes.count)
        return output
    }
}
