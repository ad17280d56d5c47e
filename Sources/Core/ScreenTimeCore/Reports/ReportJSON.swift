import FoundationEssentials

/// `report --json`: a `UsageReport` written field by field, exactly as `JSONEncoder` writes it with
/// `[.prettyPrinted, .sortedKeys]` (the tests hold the two equal). A year's report has a day map per
/// app, group and mode; the encoder's boxing of every value and sorting of every map were a sixth
/// of the whole command's time.
struct ReportJSON {
    private var text = ""
    private var indent = 0

    static func text(of report: UsageReport) -> String {
        var json = ReportJSON()
        json.text.reserveCapacity(1 << 16)
        json.write(report)
        return json.text
    }

    // Keys in the encoder's order: sorted ignoring case, digits as numbers.
    private mutating func write(_ report: UsageReport) {
        object {
            $0.key("apps") { $0.array(report.apps) { $0.write($1) } }
            $0.key("bypasses") { $0.array(report.bypasses) { $0.write($1) } }
            $0.key("dailyAverageSeconds") { $0.number(report.dailyAverageSeconds) }
            $0.key("days") { $0.array(report.days) { $0.write($1) } }
            if let devices = report.devices { $0.key("devices") { $0.array(devices) { $0.write($1) } } }
            $0.key("from") { $0.string(report.from) }
            $0.key("groups") { $0.array(report.groups) { $0.write($1) } }
            $0.key("hours") { $0.array(report.hours) { json, hours in json.array(hours) { $0.number($1) } } }
            $0.key("limitsReached") { $0.array(report.limitsReached) { $0.write($1) } }
            $0.key("modeExits") { $0.array(report.modeExits) { $0.write($1) } }
            $0.key("modes") { $0.array(report.modes) { $0.write($1) } }
            $0.key("notTracked") { $0.array(report.notTracked) { $0.write($1) } }
            $0.key("pickups") { $0.integer(report.pickups) }
            $0.key("previous") { $0.write(report.previous) }
            $0.key("switches") { $0.integer(report.switches) }
            $0.key("title") { $0.string(report.title) }
            $0.key("to") { $0.string(report.to) }
            $0.key("totalSeconds") { $0.number(report.totalSeconds) }
        }
    }

    private mutating func write(_ app: UsageReport.AppUsage) {
        object {
            $0.key("days") { $0.days(app.days) }
            $0.key("group") { $0.string(app.group) }
            $0.key("id") { $0.string(app.id.rawValue) }
            $0.key("name") { $0.string(app.name) }
            $0.key("seconds") { $0.number(app.seconds) }
        }
    }

    private mutating func write(_ share: UsageReport.Share) {
        object {
            $0.key("days") { $0.days(share.days) }
            $0.key("name") { $0.string(share.name) }
            $0.key("seconds") { $0.number(share.seconds) }
        }
    }

    private mutating func write(_ day: UsageReport.Day) {
        object {
            $0.key("date") { $0.string(day.date) }
            $0.key("pickups") { $0.integer(day.pickups) }
            $0.key("seconds") { $0.number(day.seconds) }
            $0.key("switches") { $0.integer(day.switches) }
        }
    }

    private mutating func write(_ previous: UsageReport.Previous) {
        object {
            $0.key("from") { $0.string(previous.from) }
            $0.key("pickups") { $0.integer(previous.pickups) }
            $0.key("seconds") { $0.number(previous.seconds) }
            $0.key("switches") { $0.integer(previous.switches) }
        }
    }

    private mutating func write(_ exit: UsageReport.ModeExitEntry) {
        object {
            $0.key("at") { $0.string(exit.at) }
            $0.key("grantedSeconds") { $0.number(exit.grantedSeconds) }
            $0.key("how") { $0.string(exit.how) }
            $0.key("leftSeconds") { $0.number(exit.leftSeconds) }
            $0.key("mode") { $0.string(exit.mode) }
        }
    }

    private mutating func write(_ span: UsageReport.NotTracked) {
        object {
            $0.key("cause") { $0.string(span.cause) }
            $0.key("detail") { $0.string(span.detail) }
            $0.key("from") { $0.string(span.from) }
            $0.key("seconds") { $0.number(span.seconds) }
            $0.key("to") { $0.string(span.to) }
        }
    }

    private mutating func write(_ event: UsageReport.Event) {
        object {
            $0.key("app") { $0.string(event.app.rawValue) }
            $0.key("at") { $0.string(event.at) }
            $0.key("day") { $0.string(event.day) }
            if let mode = event.mode { $0.key("mode") { $0.string(mode) } }
            $0.key("seconds") { $0.number(event.seconds) }
        }
    }

    /// A map by day label (`2026-11-29`): such labels sort as text.
    private mutating func days(_ days: [String: TimeInterval]) {
        object {
            for (day, seconds) in days.sorted(by: { $0.key < $1.key }) { $0.key(day) { $0.number(seconds) } }
        }
    }

    // MARK: The encoder's layout

    private var isFirstInContainer = true

    private mutating func object(_ body: (inout ReportJSON) -> Void) {
        container(open: "{", close: "}", body)
    }

    private mutating func array<Element>(_ elements: [Element], _ write: (inout ReportJSON, Element) -> Void) {
        container(open: "[", close: "]") { json in
            for element in elements {
                json.nextElement()
                write(&json, element)
            }
        }
    }

    private mutating func container(open: String, close: String, _ body: (inout ReportJSON) -> Void) {
        text += open
        text += "\n"
        indent += 1
        let outerFirst = isFirstInContainer
        isFirstInContainer = true
        body(&self)
        isFirstInContainer = outerFirst
        indent -= 1
        text += "\n"
        text += Self.indentation(indent)
        text += close
    }

    private mutating func nextElement() {
        if !isFirstInContainer { text += ",\n" }
        isFirstInContainer = false
        text += Self.indentation(indent)
    }

    private mutating func key(_ name: String, _ value: (inout ReportJSON) -> Void) {
        nextElement()
        string(name)
        text += " : "
        value(&self)
    }

    private mutating func integer(_ value: Int) { text += String(value) }

    /// As the encoder writes a Double: its shortest description, without a trailing `.0`.
    private mutating func number(_ value: Double) {
        var description = value.description
        if description.hasSuffix(".0") { description.removeLast(2) }
        text += description
    }

    private static let indentations = (0..<8).map { String(repeating: "  ", count: $0) }

    private static func indentation(_ depth: Int) -> String {
        depth < indentations.count ? indentations[depth] : String(repeating: "  ", count: depth)
    }

    private mutating func string(_ value: String) {
        text += "\""
        // Most names need no escape: copied whole.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/": text += "\\/"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{c}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
